"""``qardlab.voila_kernel``: Voila's page kernels run ipykernel without its debugger and input history,
JupyterLab's keep both (issue 27: a seat's kernel as small as it can be).

The kernel spec manager that jupyter-config/voila.json names for the voila command changes only the
kernel specs that start ipykernel in this Python; a kernel started through it answers ``kernel_info``
with ``debugger: false``, never loads debugpy and keeps no history, and still runs a page's cells.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import KernelManager

from qardlab.voila_kernel import KERNEL_OPTIONS, PageKernelSpecManager, page_kernel_spec

ROOT = Path(__file__).resolve().parents[1]
IPYKERNEL = ["-m", "ipykernel_launcher", "-f", "{connection_file}"]


def spec(argv: list[str], **metadata) -> KernelSpec:
    return KernelSpec(argv=argv, display_name="k", language="python", metadata=metadata)


@pytest.mark.parametrize("python", ["python", "python3", f"python3.{sys.version_info[1]}", sys.executable])
def test_ipykernel_of_this_python_starts_as_a_page_kernel(python: str) -> None:
    s = page_kernel_spec(spec([python, *IPYKERNEL], debugger=True, other=1))
    assert s.argv == [python, "-m", "qardlab.voila_kernel", "-f", "{connection_file}"]
    assert s.metadata == {"debugger": False, "other": 1}


@pytest.mark.parametrize(
    "argv",
    [
        ["/some/other/env/bin/python", *IPYKERNEL],  # another Python: qardlab may not be installed there
        ["R", "--slave", "-e", "IRkernel::main()", "--args", "{connection_file}"],
        ["python", "-m", "some_other_kernel", "-f", "{connection_file}"],
        ["python", "-c", "print(1)"],
        [],
    ],
)
def test_other_kernel_specs_are_left_as_they_are(argv: list[str]) -> None:
    s = page_kernel_spec(spec(list(argv), debugger=True))
    assert s.argv == argv and s.metadata == {"debugger": True}


def test_voila_json_names_the_manager_for_the_voila_command() -> None:
    config = json.loads((ROOT / "jupyter-config" / "voila.json").read_text())
    name = config["VoilaConfiguration"]["kernel_spec_manager_class"]
    module, _, cls = name.rpartition(".")
    assert (module, cls) == ("qardlab.voila_kernel", PageKernelSpecManager.__name__)


def _start(manager: KernelSpecManager, tmp_path: Path) -> tuple[KernelManager, dict, str]:
    """A kernel of ``manager``'s python3 spec (ipykernel's, in a folder of its own): its kernel_info
    reply and what a cell in it prints."""
    folder = tmp_path / "kernels" / "python3"
    folder.mkdir(parents=True)
    (folder / "kernel.json").write_text(
        json.dumps(
            {"argv": ["python", *IPYKERNEL], "display_name": "Python 3", "language": "python", "metadata": {}}
        )
    )
    manager.kernel_dirs = [str(tmp_path / "kernels")]
    km = KernelManager(kernel_name="python3", kernel_spec_manager=manager)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    km.start_kernel(env=env, cwd=str(tmp_path))
    client = km.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        info = client.kernel_info(reply=True, timeout=30)["content"]
        outputs: list[str] = []
        code = (
            "import sys, qardlab.classroom.apps\n"
            "print(sys.modules.get('debugpy') is None, get_ipython().history_manager.enabled,"
            " '' in sys.path)"
        )

        def hook(msg: dict) -> None:
            if msg["msg_type"] == "stream":
                outputs.append(msg["content"]["text"])

        reply = client.execute_interactive(code, timeout=60, output_hook=hook)
        assert reply["content"]["status"] == "ok", reply["content"]
    finally:
        client.stop_channels()
    return km, info, "".join(outputs).strip()


def test_a_page_kernel_has_no_debugger_and_no_history(tmp_path: Path) -> None:
    """Started as Voila starts it: ``kernel_info`` lists no debugger, debugpy was never loaded, IPython keeps
    no history, the notebook's folder is on sys.path again for its imports, and qardlab's page imports."""
    km, info, printed = _start(PageKernelSpecManager(), tmp_path)
    try:
        assert km.kernel_spec.argv[1:3] == ["-m", "qardlab.voila_kernel"]
        assert "--HistoryManager.enabled=False" in KERNEL_OPTIONS
        assert "debugger" not in info["supported_features"]
        assert printed == "True False True", printed
    finally:
        km.shutdown_kernel(now=True)


def test_jupyterlabs_kernel_keeps_its_debugger_and_history(tmp_path: Path) -> None:
    """The same spec through the ordinary manager (JupyterLab's): the debugger and the history are there."""
    km, info, printed = _start(KernelSpecManager(), tmp_path)
    try:
        assert "debugger" in info["supported_features"]
        assert printed == "False True True", printed
    finally:
        km.shutdown_kernel(now=True)
