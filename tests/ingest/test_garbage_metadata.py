"""Bad input does not blow up memory: a metadata CSV of a million garbage rows (no CR) is
refused at once, naming the file and its first bad line, in flat memory."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from codelog.ingest.codenet import BUNDLED_ROOT, MALFORMED_LIMIT


def test_a_million_garbage_rows_are_refused_early_in_flat_memory(tmp_path: Path):
    root = Path(shutil.copytree(BUNDLED_ROOT, tmp_path / "tree"))
    target = root / "metadata" / "p00002.csv"
    first_bad = target.read_bytes().count(b"\n") + 1
    garbage = b"".join(b'x%d;garbage "row,%d\n' % (i % 97, i) for i in range(1000))
    with target.open("ab") as f:
        for _ in range(1000):  # 1,000,000 rows, \n only
            f.write(garbage)
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from codelog.errors import InputError\n"
        "from codelog.ingest.codenet import scan_codenet\n"
        "from codelog.recipe import load_recipe\n"
        "try:\n"
        "    scan_codenet(Path(sys.argv[1]), 'python', load_recipe())\n"
        "    message = None\n"
        "except InputError as exc:\n"
        "    message = str(exc)\n"
        # VmHWM: this program's peak (ru_maxrss would keep pytest's, from before the exec)
        "rss = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
        "print(json.dumps({'message': message, 'rss_kb': rss}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(root)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["message"] is not None
    assert str(target) in result["message"]
    assert f"more than {MALFORMED_LIMIT:,} malformed rows" in result["message"]
    assert f"line {first_bad}:" in result["message"]
    assert result["rss_kb"] < 300_000, result  # a real 40k-row build needs ~490 MB
