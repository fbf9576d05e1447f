"""Lictor: the version, and the generated gRPC code of the ``lictor.v1`` contract (``lictor.v1``)."""

__version__ = "0.1.0"
