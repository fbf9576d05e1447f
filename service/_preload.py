"""Imported by the worker processes' forkserver (``set_forkserver_preload``): every registered game,
its content pack and the solver modules are loaded once there, so each worker starts warm and
shares those pages with its siblings."""

from service import jobs

jobs.warm_up()
