"""worker: the RabbitMQ queue stage that runs the density fit (see its issue)."""
