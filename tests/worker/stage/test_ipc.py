"""The frames between the stage and its fit processes (worker.stage.ipc): partial sends."""

from __future__ import annotations

import pytest

from worker.stage.ipc import unsent

HEADER = b"HHHHH"
PAYLOAD = b"payload"


@pytest.mark.parametrize("sent", range(len(HEADER) + len(PAYLOAD) + 1))
def test_what_a_partial_send_leaves_is_the_frames_rest_in_order(sent: int) -> None:
    rest = b"".join(bytes(part) for part in unsent(HEADER, PAYLOAD, sent))
    assert rest == (HEADER + PAYLOAD)[sent:]


def test_a_frame_without_a_payload_leaves_no_empty_part() -> None:
    assert unsent(HEADER, b"", 2) == [HEADER[2:]]
    assert unsent(HEADER, b"", len(HEADER)) == []


def test_a_whole_send_leaves_nothing() -> None:
    assert unsent(HEADER, PAYLOAD, len(HEADER) + len(PAYLOAD)) == []
