"""Follows a started server's output on a thread, so a test can wait for a log line without
losing lines to the pipe's read buffer (select() does not see lines Python already read)."""
import threading
import time


class LogTail:
    def __init__(self, process):
        self.lines = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._follow, args=(process.stdout,), daemon=True)
        self._thread.start()

    def _follow(self, stream):
        for line in iter(stream.readline, ""):
            with self._lock:
                self.lines.append(line)

    def mark(self):
        """A position: wait_for(text, after=mark) looks only at lines logged after it."""
        with self._lock:
            return len(self.lines)

    def wait_for(self, text, after=0, timeout=15):
        """The first line after `after` containing `text`, or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                for line in self.lines[after:]:
                    if text in line:
                        return line
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)
