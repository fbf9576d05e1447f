"""Generated code of the lictor.v1 contract (``make proto``; do not edit)."""
