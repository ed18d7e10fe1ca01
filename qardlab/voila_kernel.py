"""The kernels of Voila's pages: ipykernel without what a page never uses (issue 27: a seat's kernel as
small as it can be; a class of thirty runs thirty of them on the teacher's laptop).

``jupyter-config/voila.json``, which the install puts in the environment's ``etc/jupyter``, names
:class:`PageKernelSpecManager` as Voila's kernel spec manager. Only the ``voila`` command reads that
setting (Voila inside a Jupyter server, JupyterLab's or Binder's, starts the server's kernels), and
JupyterLab's kernels are never touched: a notebook's user who debugs still has the debugger. For a kernel
spec that starts ipykernel in this very Python (``python -m ipykernel_launcher``: the ``python3`` spec
the notebooks name), Voila gets ``python -m qardlab.voila_kernel`` instead, which starts the same ipykernel
with the same arguments, less two things no Voila page uses:

- the debugger: ipykernel imports debugpy at every start, whether anybody debugs or not (about 7 MB of
  each kernel's own memory), and a Voila page cannot debug: Voila passes only the widgets' messages,
  ``kernel_info`` and ``shutdown`` from the page to its kernel. ``debugpy`` is made unimportable
  before ipykernel loads, so ipykernel starts as where debugpy is not installed (its ``kernel_info``
  lists no ``debugger`` feature; the spec's metadata says ``debugger: false``);
- the input history: IPython writes every cell a kernel runs to a SQLite file, with a thread of its own,
  for ``%history`` and the up arrow of a console; ``HistoryManager.enabled=False`` keeps none.

A kernel spec of another language, or of another Python (where qardlab may not be installed), is left
as it is. ``benchmarks/seat_kernel.py`` measures a joined seat's kernel started this way.
"""

from __future__ import annotations

import os
import sys

from jupyter_client.kernelspec import KernelSpec, KernelSpecManager

__all__ = ["PageKernelSpecManager", "page_kernel_spec", "main", "KERNEL_OPTIONS"]

#: what ``main`` adds to ipykernel's command line
KERNEL_OPTIONS = ("--HistoryManager.enabled=False",)
#: the launchers of ipykernel that ``page_kernel_spec`` replaces
_IPYKERNEL = ("ipykernel_launcher", "ipykernel")


def _this_python(executable: str) -> bool:
    """Whether a kernel spec's ``argv[0]`` is the Python running now (jupyter_client runs a bare
    ``python``/``python3``/``pythonX.Y`` as ``sys.executable``)."""
    major, minor = sys.version_info[:2]
    if executable in ("python", f"python{major}", f"python{major}.{minor}"):
        return True
    try:
        return os.path.samefile(executable, sys.executable)
    except OSError:
        return False


def page_kernel_spec(spec: KernelSpec) -> KernelSpec:
    """``spec`` for a Voila page: ipykernel in this Python started by ``python -m qardlab.voila_kernel``,
    with ``debugger: false`` in its metadata; any other spec unchanged. Changes and returns ``spec``."""
    argv = list(spec.argv)
    if len(argv) >= 3 and argv[1] == "-m" and argv[2] in _IPYKERNEL and _this_python(argv[0]):
        spec.argv = [argv[0], "-m", "qardlab.voila_kernel", *argv[3:]]
        spec.metadata = {**spec.metadata, "debugger": False}
    return spec


class PageKernelSpecManager(KernelSpecManager):
    """Voila's kernel spec manager (``VoilaConfiguration.kernel_spec_manager_class`` in voila.json): the
    environment's kernel specs, ipykernel's in this Python as :func:`page_kernel_spec` gives them."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return page_kernel_spec(super().get_kernel_spec(kernel_name))


def main(argv: list[str] | None = None) -> None:
    """Start ipykernel (its arguments: ``argv``, else the command line's) without its debugger and its
    input history."""
    # as ipykernel_launcher does: the kernel's folder is not searched for modules while ipykernel loads
    # (IPython puts it back for the notebook's own imports)
    if sys.path and (sys.path[0] == "" or os.path.abspath(sys.path[0]) == os.getcwd()):
        del sys.path[0]
    sys.modules["debugpy"] = None  # type: ignore[assignment]  # `import debugpy` fails: no debugger
    from ipykernel import kernelapp

    kernelapp.launch_new_instance(argv=[*(sys.argv[1:] if argv is None else argv), *KERNEL_OPTIONS])


if __name__ == "__main__":
    main()
