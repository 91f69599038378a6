"""Run `ray ...` or `codelog ...` with every Ray address kept on 127.0.0.1.

Ray replaces a loopback address (`--node-ip-address 127.0.0.1`, `--address 127.0.0.1:PORT`)
with the machine's outward IP, which the tests must not use: their cluster stays on
loopback. This wrapper turns that replacement off before running the command:

    python tests/execution/ray_loopback.py ray start --head ...
    python tests/execution/ray_loopback.py codelog judge ... --executor ray --ray-address ...
    python tests/execution/ray_loopback.py nodes ADDRESS N   # exit 0 once N nodes are alive
"""

from __future__ import annotations

import sys

import ray._private.services as services

LOOPBACK = "127.0.0.1"
services.resolve_ip_for_localhost = lambda host: host
services.get_node_ip_address = lambda address=None: LOOPBACK

if __name__ == "__main__":
    command, sys.argv = sys.argv[1], sys.argv[1:]
    if command == "nodes":
        import ray

        ray.init(address=sys.argv[1], logging_level="ERROR", log_to_driver=False)
        sys.exit(0 if sum(n["Alive"] for n in ray.nodes()) >= int(sys.argv[2]) else 1)
    if command == "ray":
        from ray.scripts.scripts import main
    else:
        from codelog.cli import main
    sys.exit(main())
