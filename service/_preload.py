"""Imported by the worker processes' forkserver (``set_forkserver_preload``): every registered game,
its content pack and the solver modules are loaded once there, so each worker starts warm and
shares those pages with its siblings. The forkserver and the workers it forks ignore SIGINT and
SIGTERM: a signal to the whole process group is the server's to handle (it drains, then stops them)."""

from service import jobs
from service.workers import ignore_stop_signals

ignore_stop_signals()
jobs.warm_up()
