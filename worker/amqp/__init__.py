"""The programs' AMQP, and the one place that imports aio-pika and aiormq.

A module per client, over what they share:

- `topology`: the queues and exchanges, declared alike by every program
  that uses them (so that the programs may start in any order), and the
  dead-letter headers;
- `errors`: what failed (connect, publish, ack), and what the AMQP stack raises;
- `connection`: a received message's properties, a plain connection and its close;
- `broker`: the queue stage's robust connections, consumer and confirmed publishes;
- `publisher`: the feeder's confirmed publishes, many in flight;
- `reader`: the collector's consumers and their acks.

(The demo's and the tests' client is devkit.client.)
"""
