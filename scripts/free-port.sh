# Sourced by the scripts that start servers on loopback: `free_port` prints a free port
# below the kernel's ephemeral range. A port from `listen(0)` is an ephemeral one, and so
# is the source port of every outgoing connection: polling such a port until the server
# listens can connect the poller's socket to itself (TCP simultaneous open), which holds
# the port, and the server's `listen` fails with EADDRINUSE (seen in deploy-check's
# operations-commands, 2026-11-26). test/support/free-port.ts is the same rule for tests.
free_port() {
  node -e '
    const net = require("net");
    const low = Number((require("fs").readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0])) || 32768;
    const from = Math.max(1025, low - 16384);
    const attempt = (left) => {
      if (left === 0) { console.error("no free port below " + low); process.exit(1); }
      const port = from + Math.floor(Math.random() * (low - from));
      const s = net.createServer();
      s.once("error", () => attempt(left - 1));
      s.listen(port, "127.0.0.1", () => s.close(() => console.log(port)));
    };
    attempt(200);'
}
