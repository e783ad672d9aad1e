# Runs one command with this process's stdin/stdout/stderr and writes its resource usage as JSON to fd 3:
# wall seconds (from spawn to reap), user and system CPU seconds and peak RSS (KiB) from wait4(2), with the
# microsecond resolution GNU time rounds away (it prints CPU to 10 ms, a quarter of `node -e 0`).
# Used by bench/support/process.ts; the interpreter's own start-up is outside what it measures.
import json
import os
import sys
import time

os.set_inheritable(3, False)  # the measured command must not hold the report pipe open
report = os.fdopen(3, 'w')
started = time.monotonic()
try:
    pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ)
except OSError as err:
    report.write(json.dumps({'error': str(err)}))
    sys.exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.monotonic() - started
code = os.waitstatus_to_exitcode(status)
report.write(json.dumps({'wall': wall, 'user': usage.ru_utime, 'sys': usage.ru_stime, 'maxrssKiB': usage.ru_maxrss, 'code': code}))
report.close()
sys.exit(code if code >= 0 else 128 - code)
