"""Plain Python references of the library's compiled passes, for the differential tests.

Each mirrors one compiled module of blockdensity step for step, written to be
read rather than to be fast; the tests run both on the same inputs and
compare. They are not shipped, and (under tests/) never compiled, so a test
compares two implementations.
"""
