"""Reading and writing the designers' and players' files within bounds.

Every input (map, tileset, template, save, settings) is read only when it is a regular file no
larger than a limit, so a folder, a device, a pipe or a huge file is refused by name before a
byte of it is read. Every output (save, autosave, settings, screenshot) is written atomically:
a temporary file beside the target, flushed and synced, then renamed over it. Nothing that is
not a regular file is ever replaced, a failed write leaves no temporary file, and the temporary
files of a killed run are removed by the next start (``remove_stale_temps``).
"""
from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from ..errors import OutputError

MAX_INPUT_BYTES = 10 * 1024 * 1024      # docs/reliability.md: the bound every loader keeps
_TEMP = re.compile(r"^\.(?P<stem>.+)\.(?P<pid>\d+)(?:\.bak)?\.tmp$")
_TEMP_STEM = 120                       # characters of the target's name kept in a temporary's name


class FileRefused(Exception):
    """Why a file cannot be used, in words that never quote what the file holds."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a pipe, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def _reason(exc: BaseException, doing: str = "read") -> str:
    """An OS error in words (never the path again: the caller names the file)."""
    if isinstance(exc, (ValueError, UnicodeError)):
        return "has a name no file can have (it holds a NUL or an undecodable character)"
    code = getattr(exc, "errno", None)
    if code in (errno.ENOENT, errno.ENOTDIR):
        return "not found"
    if code == errno.ENAMETOOLONG:
        return "has a name too long for the file system"
    if code in (errno.EACCES, errno.EPERM):
        return f"cannot be {doing}: permission denied"
    if code == errno.EROFS:
        return f"cannot be {doing}: the file system is read-only"
    if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return f"cannot be {doing}: the disk is full"
    if code == errno.ELOOP:
        return "is a link that leads back to itself"
    if code == errno.EISDIR:
        return "is a folder, not a file"
    text = getattr(exc, "strerror", None) or type(exc).__name__
    return f"cannot be {doing}: {text}"


def regular_size(path: str | Path, limit: int | None = None) -> int:
    """The size of a regular file; FileRefused for anything else or for a file over ``limit``
    bytes, without opening it (opening some devices acts on them)."""
    if str(path) == "":
        raise FileRefused("no file named (the name is empty)")
    try:
        st = os.stat(path)
    except (OSError, ValueError, UnicodeError) as exc:
        raise FileRefused(_reason(exc)) from None
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(_kind(st.st_mode))
    if limit is not None and st.st_size > limit:
        raise FileRefused(f"is {_megabytes(st.st_size)}, larger than the {_megabytes(limit)} a file may be")
    return st.st_size


def is_regular(path: str | Path) -> bool:
    try:
        regular_size(path)
    except FileRefused:
        return False
    return True


def read_bounded(path: str | Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or FileRefused saying why not."""
    regular_size(path, limit)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError, UnicodeError) as exc:
        raise FileRefused(_reason(exc)) from None
    try:
        st = os.fstat(fd)       # what was opened, in case the name changed hands since the check
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(_kind(st.st_mode))
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise FileRefused(_reason(exc)) from None
    finally:
        os.close(fd)
    if left <= 0:
        raise FileRefused(f"is larger than the {_megabytes(limit)} a file may be")
    return b"".join(chunks)


def _megabytes(n: int) -> str:
    mb = 1024 * 1024
    if n < 100 * 1024:
        return f"{n} bytes"
    return f"{n // mb} MB" if n % mb == 0 else f"{n / mb:.2f} MB"


# --- writing ---------------------------------------------------------------------------------

def _temp_name(name: str, pid: int, bak: bool = False) -> str:
    return f".{name[:_TEMP_STEM]}.{pid}{'.bak' if bak else ''}.tmp"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False            # one writer per process: a temporary with our number is a dead run's
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0          # someone else's live process (or a number no process can have)
    return True


def remove_stale_temps(folder: str | Path, name: str | None = None) -> list[Path]:
    """Remove the temporary files that runs killed while writing left in ``folder`` (only those of
    the target ``name`` when given); return what was removed. A live writer's files are kept."""
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    stem = None if name is None else name[:_TEMP_STEM]
    for entry in entries:
        m = _TEMP.match(entry.name)
        old_bak = name is not None and entry.name == f".{name}.bak.tmp"   # the staging name before pids
        if not (m or old_bak):
            continue
        if m and ((stem is not None and m["stem"] != stem) or _alive(int(m["pid"]))):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _target(path: str | Path) -> Path:
    """The real file a write lands on (a link is followed, so the link stays), or OutputError."""
    place = str(path)
    if place == "":
        raise OutputError(place, "no file named (the name is empty)")
    try:
        target = Path(os.path.realpath(path))
        st = os.stat(target)
    except FileNotFoundError:
        return target
    except NotADirectoryError:
        raise OutputError(place, "cannot be written: a part of its path is a file, not a folder") from None
    except (OSError, ValueError, UnicodeError) as exc:
        raise OutputError(place, _reason(exc, "written")) from None
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(place, f"{_kind(st.st_mode)}: only a regular file is ever replaced")
    return target


def check_output(path: str | Path) -> None:
    """Refuse at once an output path that can never be written (a folder, a device, a name too
    long), so a long run does not end in a failed write."""
    target = _target(path)
    for name in (target.name, _temp_name(target.name, os.getpid())):
        if len(os.fsencode(name)) > 255:
            raise OutputError(str(path), "has a name too long for the file system")
    parent = target.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(str(path), f"cannot be written: {parent} is not a folder")


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` all or nothing, keeping the previous file as ``<name>.bak``;
    OutputError (one line, the path named) when it cannot be done."""
    place = str(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = _target(path)
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(place, f"its folder cannot be made ({_reason(exc, 'made')})") from None
    remove_stale_temps(folder, target.name)
    tmp = folder / _temp_name(target.name, os.getpid())
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as exc:
        raise OutputError(place, _reason(exc, "written")) from None
    try:
        try:
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            _keep_mode(target, fd)
        finally:
            os.close(fd)
        _keep_previous(target)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(place, _reason(exc, "written")) from None
        raise
    _sync_folder(folder)


def _keep_mode(target: Path, fd: int) -> None:
    """The new file keeps the permissions of the one it replaces."""
    try:
        os.fchmod(fd, stat.S_IMODE(os.stat(target).st_mode))
    except FileNotFoundError:
        pass


def _sync_folder(folder: Path) -> None:
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass                    # some file systems cannot sync a folder; the rename is done
    finally:
        os.close(dir_fd)


def _keep_previous(path: Path) -> None:
    """Hard-link the current file as ``.bak`` so the file itself never disappears, even for a
    moment. No backup is kept when the file is new, when ``.bak`` would be too long a name or
    when ``.bak`` is something other than a regular file (which is never replaced)."""
    if not path.exists():
        return
    bak = path.with_name(path.name + ".bak")
    if len(os.fsencode(bak.name)) > 255:
        return
    try:
        if not stat.S_ISREG(os.lstat(bak).st_mode):
            return
    except FileNotFoundError:
        pass
    staging = path.with_name(_temp_name(path.name, os.getpid(), bak=True))
    try:
        staging.unlink(missing_ok=True)
        try:
            os.link(path, staging)
        except OSError:
            staging.write_bytes(path.read_bytes())
        os.replace(staging, bak)
    except BaseException:
        try:
            staging.unlink(missing_ok=True)
        except OSError:
            pass
        raise
