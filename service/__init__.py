"""The gRPC service of Lictor: ``create_server``/``serve``, the servicers, and the CLI (``lictor``).

Only this package imports grpc and the generated ``lictor.v1`` code. Names are imported lazily so
``python -m service.protogen`` runs before any code is generated.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SERVICE_NAMES", "LictorServer", "create_server", "serve"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from service import server

        return getattr(server, name)
    raise AttributeError(f"module 'service' has no attribute {name!r}")
