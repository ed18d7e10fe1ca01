"""The memory of one joined seat's kernel: what each student of a class costs the join page's host.

A classroom server (``python -m qardlab serve``) runs one Five Sons table (``--players``, 4 by default):
seat 0 a student, the others bots. A kernel is started as that code's Voila starts one for the join page:
the notebook's ``python3`` kernel spec (``python -m ipykernel_launcher``) through the kernel spec manager
``jupyter-config/voila.json`` names, which gives ``python -m qardlab.voila_kernel`` (ipykernel without
its debugger and input history) where the code has :mod:`qardlab.voila_kernel`, else ipykernel as it
is. The kernel runs the join page's cell (``notebooks/app-classroom.ipynb``: ``JoinApp()``) with the
server and seat 0's code filled in, and joins the seat (``await app.join_now()``: the seat's table
drawn, its live connection open). The kernel process's memory is read three times, each once the
kernel is idle (after a ``gc.collect()``): just started (before any cell: what the page costs before
qardlab), just joined, and after ``--play N`` of the seat's turns (its first legal action each time,
as a click would; the bots answer at once). Memory: RSS, and USS (the memory that would be freed if
the kernel went; psutil's ``memory_full_info``, else ``/proc/PID/smaps_rollup``'s private pages). CPU
time of the kernel: to start and join (its own start, the page's imports, the join), and per step of
the table while the seat plays.

``--baseline REF`` runs the same rounds on commit ``REF``'s ``qardlab`` (server and kernel both), one
round of each after the other, so both columns come from one run on the same loaded machine; figures
are the median over rounds (MiB).

    python benchmarks/seat_kernel.py [--rounds 3] [--play 0] [--players 4] [--baseline 43a5597]
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024


def memory(pid: int) -> dict[str, float]:
    """RSS and USS of a process, MiB (USS: psutil if present, else /proc's private pages)."""
    try:
        import psutil

        info = psutil.Process(pid).memory_full_info()
        return {"rss": info.rss / MIB, "uss": info.uss / MIB}
    except ImportError:
        pass
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        m = re.match(r"(\w+):\s+(\d+) kB", line)
        if m:
            fields[m.group(1)] = int(m.group(2)) * 1024
    uss = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return {"rss": fields.get("Rss", 0) / MIB, "uss": uss / MIB}


def psutil_process(pid: int) -> Any:
    try:
        import psutil

        return psutil.Process(pid)
    except ImportError:
        return pid


def cpu_seconds(proc: Any) -> float | None:
    """The kernel process's CPU time so far (user + system), s."""
    if isinstance(proc, int):
        try:
            fields = Path(f"/proc/{proc}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None
    t = proc.cpu_times()
    return t.user + t.system


def table_step(client: Any) -> int:
    """The joined table's step now (0 before the join)."""
    out = _stdout(
        _execute(client, "print(_table.observation(_table.remote.seat)['step'] if '_table' in dir() else 0)")
    )
    return int(out.strip() or 0)


def _execute(client: Any, code: str, timeout: float = 120) -> list[dict]:
    """Run ``code`` in the kernel; its outputs (raises on an error output)."""
    outputs: list[dict] = []
    reply = client.execute_interactive(code, timeout=timeout, output_hook=outputs.append)
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"the kernel raised: {reply['content'].get('evalue')}\n{code}")
    return outputs


def _stdout(outputs: list[dict]) -> str:
    return "".join(o["content"].get("text", "") for o in outputs if o["msg_type"] == "stream")


#: in the kernel: wait (at most 10 s) for the seat's turn, then play its first legal action as a click
#: would (``table.act``); prints how many actions it had (0: the game is over, or the turn never came)
PLAY_ONE_TURN = """
import asyncio
for _i in range(200):
    _o = _table.observation(_table.remote.seat)
    if _o["is_over"] or (_o["to_move"] == _table.remote.seat and _o["legal"]):
        break
    await asyncio.sleep(0.05)
_legal = [] if _o["is_over"] else list(_o["legal"])
if _legal:
    _table.act(_legal[0])
    await asyncio.sleep(0.3)
print(len(_legal))
"""


def join_page_code() -> str:
    """The join page's code cell, as the notebook has it."""
    nb = json.loads((ROOT / "notebooks" / "app-classroom.ipynb").read_text(encoding="utf-8"))
    return "".join(next(c for c in nb["cells"] if c["cell_type"] == "code")["source"])


#: in the kernel: which of the heavier modules it holds
HEAVY = ("numpy", "matplotlib", "PIL", "scipy", "pandas", "segno", "joblib", "threadpoolctl", "debugpy")
LOADED = f"import sys\nprint(' '.join(m for m in {HEAVY!r} if sys.modules.get(m) is not None))"


def kernel_spec_manager(spec_dir: Path) -> tuple[Any, str]:
    """The kernel spec manager the measured code's Voila uses (voila.json's), over ``spec_dir``; and the
    module its kernels start with."""
    from jupyter_client.kernelspec import KernelSpecManager

    import qardlab

    try:
        from qardlab import voila_kernel
    except ImportError:
        voila_kernel = None
    # code from before qardlab.voila_kernel (the editable install's finder may still find this
    # checkout's module for it: not the measured code's): Voila ran ipykernel as it is
    if voila_kernel is None or Path(voila_kernel.__file__).parent != Path(qardlab.__file__).parent:
        return KernelSpecManager(kernel_dirs=[str(spec_dir)]), "ipykernel_launcher"
    return voila_kernel.PageKernelSpecManager(kernel_dirs=[str(spec_dir)]), "qardlab.voila_kernel"


def one_kernel(play: int, players: int = 4) -> dict[str, Any]:
    """Start a server and a kernel, join seat 0, let it play; the kernel's memory at each stage."""
    from jupyter_client.manager import KernelManager

    from qardlab.classroom.teacher import LocalServer, Teacher

    with LocalServer() as server:
        table = Teacher(server.url, server.token).create_table(
            "five_sons", players, seed=7, bots={s: "logic" for s in range(1, players)}, pace=0
        )
        code = table["seats"][0]["code"]
        env = dict(os.environ)
        env["QUERY_STRING"] = f"server={server.url}&code={code}"  # what Voila gives the join page's kernel
        # the notebook's python3 kernel spec as ipykernel installs it, in a folder of its own
        specs = Path(tempfile.mkdtemp(prefix="qardlab-seat-kernel-"))
        (specs / "python3").mkdir()
        (specs / "python3" / "kernel.json").write_text(
            json.dumps(
                {
                    "argv": ["python", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                    "display_name": "Python 3 (ipykernel)",
                    "language": "python",
                    "metadata": {"debugger": True},
                }
            )
        )
        ksm, launcher = kernel_spec_manager(specs)
        km = KernelManager(kernel_name="python3", kernel_spec_manager=ksm)
        km.start_kernel(env=env, cwd=str(ROOT / "notebooks"))
        client = km.client()
        client.start_channels()
        pid = km.provisioner.process.pid

        def idle_memory() -> dict[str, float]:
            _execute(client, "import gc; gc.collect()")
            return memory(pid)

        try:
            client.wait_for_ready(timeout=60)
            started = idle_memory()
            _execute(client, join_page_code())
            _execute(client, "_table = await app.join_now()\nassert _table is not None, app.message.value")
            played = 0
            proc = psutil_process(pid)
            cpu0, step0 = cpu_seconds(proc), table_step(client)
            time.sleep(1.0)  # the first frames drawn
            joined = idle_memory()
            for _ in range(play):
                out = _execute(client, PLAY_ONE_TURN)
                if _stdout(out).strip() in ("", "0"):
                    break
                played += 1
            time.sleep(1.0)  # the last frames drawn
            cpu1, step1 = cpu_seconds(proc), table_step(client)
            modules = _stdout(_execute(client, LOADED)).strip()
            mem = idle_memory()
        finally:
            client.stop_channels()
            km.shutdown_kernel(now=True)
    steps = step1 - step0
    per_step = (cpu1 - cpu0) * 1000 / steps if steps and cpu1 is not None and cpu0 is not None else None
    return {
        **mem,
        "started": started,
        "joined": joined,
        "launcher": launcher,
        "played": played,
        "modules": modules,
        "steps": steps,
        "cpu_ms_per_step": per_step,
        "startup_cpu_s": cpu0,
    }


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _baseline import checkout, measure, parser

    ap = parser(__doc__.splitlines()[0], rounds=3, baseline="kernel is measured too")
    ap.add_argument("--play", type=int, default=0, help="turns the seat plays before the last reading")
    ap.add_argument("--players", type=int, default=4, choices=(4, 5), help="seats at the table")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(one_kernel(args.play, args.players)))
        return
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.baseline:
        trees.insert(0, (args.baseline, checkout(args.baseline)))
    runs: dict[str, list[dict]] = {name: [] for name, _ in trees}
    for r in range(args.rounds):
        for name, path in trees:
            result = measure(path or ROOT, __file__, "--play", str(args.play), "--players", str(args.players))
            runs[name].append(result)
            cpu = result.get("cpu_ms_per_step")
            print(
                f"round {r + 1} {name:>10} ({result['launcher']}): started RSS {result['started']['rss']:.1f}"
                f" USS {result['started']['uss']:.1f}; joined RSS {result['joined']['rss']:.1f}"
                f" USS {result['joined']['uss']:.1f}; after play RSS {result['rss']:.1f}"
                f" USS {result['uss']:.1f}"
                f" MiB (played {result['played']} turns, {result.get('steps', 0)} steps of the table"
                + (f", kernel CPU {cpu:.1f} ms a step" if cpu is not None else "")
                + (
                    f", {result['startup_cpu_s']:.2f} s to start and join"
                    if result.get("startup_cpu_s")
                    else ""
                )
                + f"; loaded: {result['modules'] or 'none of the heavy ones'})",
                flush=True,
            )
    print(f"\none joined seat's kernel ({args.players} players), median of {args.rounds} rounds (MiB):")
    print(
        f"{'code':>12} {'started RSS':>12} {'USS':>6} {'joined RSS':>11} {'USS':>6}"
        f" {f'{args.play} turns RSS':>14} {'USS':>6} {'CPU ms/step':>12} {'CPU s to join':>14}"
    )
    for name, _ in trees:
        rs = runs[name]

        def med(stage: str | None, key: str, rs: list = rs) -> float:
            return statistics.median((x[stage] if stage else x)[key] for x in rs)

        cpus = [x["cpu_ms_per_step"] for x in rs if x.get("cpu_ms_per_step") is not None]
        cpu = f"{statistics.median(cpus):12.1f}" if cpus else f"{'-':>12}"
        starts = [x["startup_cpu_s"] for x in rs if x.get("startup_cpu_s") is not None]
        start = f"{statistics.median(starts):14.2f}" if starts else f"{'-':>14}"
        print(
            f"{name:>12} {med('started', 'rss'):12.1f} {med('started', 'uss'):6.1f}"
            f" {med('joined', 'rss'):11.1f} {med('joined', 'uss'):6.1f}"
            f" {med(None, 'rss'):14.1f} {med(None, 'uss'):6.1f} {cpu} {start}"
        )


if __name__ == "__main__":
    main()
