"""The Windows installer's script (packaging/windows/praca.iss) and its guide (docs/install-windows.md), checked on
Linux (issue 32 §5).

No Windows here: the script is read the way Inno Setup reads it — its preprocessor's ``#ifdef``/``#define``/
``{#…}`` for the signed and the unsigned build, its sections, each entry's parameters, the Pascal of ``[Code]``
tokenised — and each finding of the review is checked to stay fixed. When Inno Setup's own compiler is at hand
(``PRACA_ISCC``: the command that runs ISCC.exe, for example under Wine), the script is also compiled, signed and
unsigned. What only a Windows machine can show is listed in the guide's last section."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "packaging" / "windows" / "praca.iss"
GUIDE = ROOT / "docs" / "install-windows.md"

#: Inno Setup's constants for the installing user's own profile ("user areas"): in an administrative install they
#: are the administrator's (or SYSTEM's) folders, never the clerk's.
USER_AREAS = (
    "userappdata",
    "localappdata",
    "userdocs",
    "userdesktop",
    "userfavorites",
    "userfonts",
    "userprograms",
    "userstartmenu",
    "userstartup",
    "usertemplates",
    "usersavedgames",
    "userpf",
    "usercf",
    "sendto",
)


# --------------------------------------------------------------------------- reading the script


def _version(major: int, minor: int, revision: int = 0, build: int = 0) -> int:
    """ISPP's EncodeVer: the compiler's version as one number (``VER``)."""
    return (major << 24) | (minor << 16) | (revision << 8) | build


class PreprocessorError(Exception):
    """An ``#error`` the preprocessor reached."""


def _evaluate(expression: str, names: dict[str, object]) -> object:
    """The few ISPP expressions the script uses: strings, names, ``+``, ``VER < EncodeVer(a, b, c)``."""
    expression = expression.strip()
    compare = re.fullmatch(r"VER\s*<\s*EncodeVer\(([\d\s,]+)\)", expression)
    if compare:
        wanted = _version(*(int(part) for part in compare.group(1).split(",")))
        return int(names["VER"]) < wanted  # type: ignore[call-overload]
    parts = [part.strip() for part in expression.split("+")]
    values = [part[1:-1] if part.startswith('"') else str(names[part]) for part in parts]
    return "".join(values)


def preprocess(text: str, defines: dict[str, object]) -> str:
    """The script after Inno Setup's preprocessor, for the given command-line ``/D`` defines (and ``VER``)."""
    names = dict(defines)
    out: list[str] = []
    active = [True]  # one entry per open #if: is its branch taken (and every enclosing one)?
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            word, _, rest = stripped[1:].partition(" ")
            rest = rest.strip()
            if word in ("ifdef", "ifndef", "if"):
                taken = (
                    rest in names
                    if word == "ifdef"
                    else rest not in names
                    if word == "ifndef"
                    else bool(_evaluate(rest, names))
                )
                active.append(active[-1] and taken)
            elif word == "else":
                enclosing = active[-2]
                active[-1] = enclosing and not active[-1]
            elif word == "endif":
                active.pop()
            elif not active[-1]:
                continue
            elif word == "define":
                name, _, value = rest.partition(" ")
                names[name] = _evaluate(value, names) if value else ""
            elif word == "error":
                raise PreprocessorError(rest)
            else:
                raise AssertionError(f"unknown directive: {stripped}")
            continue
        if active[-1]:
            out.append(re.sub(r"\{#(\w+)\}", lambda m: str(names[m.group(1)]), line))
    assert active == [True], "an #if without its #endif"
    return "\n".join(out)


@dataclass
class Script:
    setup: dict[str, str]
    sections: dict[str, list[dict[str, str]]]
    code: str
    text: str
    lines: list[str] = field(default_factory=list)


def _parameters(line: str) -> dict[str, str]:
    """``Name: "x"; Flags: a b; Check: F`` as a dict (quotes removed; a ``;`` inside quotes kept)."""
    found: dict[str, str] = {}
    for match in re.finditer(r'\s*(\w+):\s*("(?:[^"]|"")*"|[^;]*)\s*(?:;|$)', line):
        value = match.group(2).strip()
        if value.startswith('"'):
            value = value[1:-1].replace('""', '"')
        found[match.group(1)] = value
    return found


def parse(text: str) -> Script:
    setup: dict[str, str] = {}
    sections: dict[str, list[dict[str, str]]] = {}
    current = ""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        stripped = line.strip()
        header = re.fullmatch(r"\[(\w+)\]", stripped)
        if header:
            current = header.group(1)
            if current == "Code":
                return Script(setup, sections, "\n".join(lines[number + 1 :]), text, lines)
            sections.setdefault(current, [])
            continue
        if not stripped or stripped.startswith(";"):
            continue
        if current == "Setup":
            key, _, value = stripped.partition("=")
            setup[key.strip()] = value.strip()
        else:
            sections[current].append(_parameters(stripped))
    return Script(setup, sections, "", text, lines)


def script(**defines: object) -> Script:
    raw = SCRIPT.read_bytes()
    return parse(preprocess(raw.decode("utf-8-sig"), {"VER": _version(6, 4, 1), **defines}))


# --------------------------------------------------------------------------- the Pascal of [Code]


_TOKEN = re.compile(
    r"(?P<string>'(?:[^']|'')*')|(?P<comment>\{[^}]*\}|\(\*.*?\*\)|//[^\n]*)|(?P<word>[A-Za-z_]\w*)"
    r"|(?P<symbol>:=|<>|<=|>=|#\d+|\S)",
    re.DOTALL,
)


def tokens(code: str) -> list[str]:
    """The code's words and symbols, lower-cased words; strings as ``'…'`` and comments dropped."""
    found = []
    for match in _TOKEN.finditer(code):
        if match.lastgroup == "comment":
            continue
        text = match.group()
        found.append(text.lower() if match.lastgroup == "word" else text)
    return found


@dataclass
class Routine:
    kind: str
    name: str
    body: list[str]


def routines(code: str) -> dict[str, Routine]:
    """Every function and procedure of ``[Code]``, by lower-case name, with the tokens of its body; each body's
    ``begin``/``case``/``try`` … ``end`` must balance, and nothing may be left between routines but declarations."""
    words = tokens(code)
    found: dict[str, Routine] = {}
    index = 0
    while index < len(words):
        if words[index] in ("function", "procedure"):
            kind, name = words[index], words[index + 1]
            start = words.index("begin", index)
            depth = 0
            end = start
            for end in range(start, len(words)):
                if words[end] in ("begin", "case", "try"):
                    depth += 1
                elif words[end] == "end":
                    depth -= 1
                    if depth == 0:
                        break
            assert depth == 0, f"{name}: begin/end do not balance"
            assert words[end + 1] == ";", f"{name}: its last end has no ;"
            found[name] = Routine(kind, name, words[start : end + 1])
            index = end + 2
        else:  # declarations (const, var) between routines: no statement block
            assert words[index] not in ("begin", "end", "case", "try"), f"a stray {words[index]} between routines"
            index += 1
    return found


#: What Inno Setup's Pascal Script provides: functions the script may call without defining them.
BUILTINS = {"isadmininstallmode", "wizardsilent", "iswin64", "not", "and", "or"}


def _check_names(expression: str) -> set[str]:
    return {word.lower() for word in re.findall(r"[A-Za-z_]\w*", expression)} - BUILTINS


# --------------------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def signed() -> Script:
    return script()


@pytest.fixture(scope="module")
def unsigned() -> Script:
    return script(Unsigned="")


@pytest.fixture(scope="module")
def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def test_the_script_keeps_its_byte_order_mark_and_its_app_id():
    """Without the BOM Inno Setup reads "Praça" as ANSI; AppId is how an upgrade finds the installed Praça."""
    assert SCRIPT.read_bytes().startswith(b"\xef\xbb\xbf")
    assert script().setup["AppId"] == "{{33DE3E15-12F9-49CF-B465-5E0F2555DB30}"


def test_inno_setup_6_3_is_required_and_said(guide):
    """x64compatible arrived in Inno Setup 6.3: an older compiler stops with a sentence, not a cryptic error."""
    assert script().setup["ArchitecturesAllowed"] == "x64compatible"
    with pytest.raises(PreprocessorError, match=r"6\.3 or newer"):
        script(VER=_version(6, 2, 2))
    assert script(VER=_version(6, 3, 0)).setup["ArchitecturesInstallIn64BitMode"] == "x64compatible"
    assert "Inno Setup 6.3 or newer" in guide and "x64compatible" in guide


def test_the_shortcuts_start_in_the_programs_folder_and_no_user_area_is_used(signed):
    """{userdocs} was the installing administrator's (or SYSTEM's) Documents, not the clerk's."""
    icons = [entry for entry in signed.sections["Icons"] if entry["Filename"].endswith("praca-gui.exe")]
    assert len(icons) == 2 and all(entry["WorkingDir"] == "{app}" for entry in icons)
    outside_comments = "\n".join(line for line in signed.lines if not line.lstrip().startswith(";"))
    for constant in USER_AREAS:
        assert "{" + constant + "}" not in outside_comments, constant
    assert signed.setup["UsedUserAreasWarning"] == "yes"


def test_no_dialog_depends_on_the_working_folder():
    """With the shortcuts in {app}, a dialog started at "" or a bare name would open in Program Files: every file
    dialog starts through views/save.py (Documents, or the folder last chosen for that kind of file)."""
    calls = {}
    for path in [*(ROOT / "views").rglob("*.py"), *(ROOT / "desktop").rglob("*.py")]:
        if path.name == "save.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"QFileDialog\.get\w+\(", line):
                calls[f"{path.relative_to(ROOT)}:{number}"] = line
    assert set(calls) <= {key for key, line in calls.items() if "start_folder(" in line}, calls


def test_the_installer_the_uninstaller_and_the_executables_are_signed_with_a_timestamp(signed, unsigned, guide):
    assert signed.setup["SignTool"] == "praca" and signed.setup["SignedUninstaller"] == "yes"
    files = signed.sections["Files"]
    for exe in ("praca.exe", "praca-gui.exe"):
        entry = next(entry for entry in files if entry["Source"].endswith("\\" + exe))
        assert "signonce" in entry["Flags"].split(), exe
    bulk = next(entry for entry in files if entry["Source"].endswith("\\*"))
    assert set(bulk["Excludes"].split(",")) == {"\\praca.exe", "\\praca-gui.exe"}
    # the unsigned build is a choice (/DUnsigned), and its file says so
    assert "SignTool" not in unsigned.setup and "SignedUninstaller" not in unsigned.setup
    assert unsigned.setup["OutputBaseFilename"].endswith("-nao-assinado")
    assert not any(
        "sign" in entry.get("Flags", "").split() or "signonce" in entry.get("Flags", "").split()
        for entry in unsigned.sections["Files"]
    )
    # every signtool command documented, in the guide and in the script's own header, has a timestamp
    commands = re.findall(r"signtool sign[^\"`\n]*", guide + SCRIPT.read_text(encoding="utf-8-sig"))
    assert len(commands) >= 2
    for command in commands:
        words = command.split()
        assert "/tr" in words and words[words.index("/tr") + 1].startswith("http"), command
        assert words[words.index("/td") + 1] == "SHA256" and words[words.index("/fd") + 1] == "SHA256", command
    assert '"/Spraca=signtool sign' in guide and "/DUnsigned" in guide


def test_the_database_is_chosen_per_machine_per_user_or_on_the_server(signed, guide):
    dirs = signed.sections["Dirs"]
    assert dirs == [
        {
            "Name": "{commonappdata}\\Praca",
            "Permissions": "users-modify",
            "Flags": "uninsneveruninstall",
            "Check": "IsMachineDatabase",
        }
    ]
    registry = {(entry["ValueName"], entry["Check"]): entry for entry in signed.sections["Registry"]}
    assert set(registry) == {
        ("PRACA_DB", "IsServerDatabase"),
        ("PRACA_DB", "not IsServerDatabase"),
        ("PRACA_DATA", "IsMachineDatabase"),
        ("PRACA_DATA", "not IsMachineDatabase"),
    }
    assert registry["PRACA_DATA", "IsMachineDatabase"]["ValueData"] == dirs[0]["Name"]
    assert registry["PRACA_DB", "IsServerDatabase"]["ValueData"] == "{code:DatabaseUrl}"
    for (_, check), entry in registry.items():
        assert entry["Root"] == "HKA" and entry["Subkey"] == "{code:EnvironmentKey}"
        if check.startswith("not "):  # the variable of the choice not taken is removed
            assert entry["ValueType"] == "none" and entry["Flags"] == "deletevalue"
        else:  # …and the uninstaller removes the one written
            assert entry["Flags"] == "uninsdeletevalue"
    # the page offers the three, and the machine's only to an administrator
    code = routines(signed.code)
    wizard = " ".join(code["initializewizard"].body)
    assert wizard.count("scopepage . add (") == 3
    assert "if not isadmininstallmode then scopepage . checklistbox . itemenabled [ scopemachine ] := false" in wizard
    assert "( result = scopemachine ) and not isadmininstallmode" in " ".join(code["initialscope"].body)
    assert "C:\\ProgramData\\Praca" in guide and "BUILTIN\\Users:(OI)(CI)(M)" in guide
    assert "Um banco para cada usuário do Windows" in guide and "one database for the desk" in guide


def test_every_switch_the_script_reads_is_documented(signed, guide):
    switches = set(re.findall(r"\{param:(\w+)\|", signed.code + "\n".join(signed.lines)))
    assert switches == {"DB", "DBSCOPE"}
    silent = guide[guide.index("### Silent installation") : guide.index("### Upgrading")]
    for switch in switches:
        assert f"| `/{switch}=" in silent, switch
    for inno in ("/VERYSILENT", "/SUPPRESSMSGBOXES", "/NORESTART", "/ALLUSERS", "/LOG=", "/DIR=", "/TASKS="):
        assert f"`{inno}" in silent, inno
    for value in ("machine", "user"):
        assert f"/DBSCOPE={value}" in silent and f"'{value}'" in signed.code


def test_a_bad_switch_in_a_silent_install_is_logged_and_ends_with_no_box(signed, guide):
    code = routines(signed.code)
    setup = " ".join(code["initializesetup"].body)
    assert "problem := commandlineproblem" in setup
    assert "log ( 'Praça: ' + problem )" in setup
    assert "result := not wizardsilent" in setup
    # no box in silent mode, whether /SUPPRESSMSGBOXES was given or not: every MsgBox is behind "not WizardSilent"
    for routine in code.values():
        words = routine.body
        for index, word in enumerate(words):
            if word in ("msgbox", "suppressiblemsgbox", "taskdialogmsgbox"):
                assert words[index - 4 : index] == ["if", "not", "wizardsilent", "then"], routine.name
    problems = " ".join(code["commandlineproblem"].body)
    for case in ("'machine'", "'user'", "isadmininstallmode", "databaseurlproblem"):
        assert case in problems, case
    assert "exit code 1" in guide and "Praça:" in guide


def test_the_address_refuses_a_password_and_the_owners_login(signed):
    """Issue 26: no desk holds a shared password or the tables' owner's credentials."""
    problem = " ".join(routines(signed.code)["databaseurlproblem"].body)
    assert "pos ( ':' , user ) > 0" in problem and "'password='" in problem  # a password in the address
    assert "'user='" in problem  # …or a login in its parameters
    assert "user = 'praca'" in problem and "user = 'postgres'" in problem and "user = ''" in problem


def test_an_upgrade_shows_the_page_filled_with_what_the_desk_has(signed):
    code = routines(signed.code)
    initial = " ".join(code["initialscope"].body)
    assert "environmentvalue ( 'PRACA_DB' )" in initial and "environmentvalue ( 'PRACA_DATA' )" in initial
    assert "getpreviousdata ( 'DbUrl' , '' )" in initial
    assert "wizardform . prevappdir <> ''" in initial  # an installation from before the page: per user, as it was
    assert "setpreviousdata ( previousdatakey , 'DbUrl'" in " ".join(code["registerpreviousdata"].body)
    wizard = " ".join(code["initializewizard"].body)
    assert "scopepage . selectedvalueindex := initialscope ( url )" in wizard
    assert "serverpage . values [ 0 ] := url" in wizard
    # only the server's page is ever skipped (when the server is not chosen): the choice is shown on an upgrade
    skip = " ".join(code["shouldskippage"].body)
    assert "scopepage . id" not in skip and "serverpage . id" in skip
    assert "DisableReadyPage" not in signed.setup


def test_every_function_the_sections_name_is_defined_and_the_code_balances(signed, unsigned):
    for parsed in (signed, unsigned):
        code = routines(parsed.code)
        named: set[str] = set()
        for entries in parsed.sections.values():
            for entry in entries:
                named |= _check_names(entry.get("Check", ""))
                for value in entry.values():
                    named |= {name.lower() for name in re.findall(r"\{code:(\w+)", value)}
        assert named and named <= set(code), named - set(code)
        for name in named:
            kind = code[name].kind
            assert kind == "function", name
        # the event functions Inno Setup calls, with the names it calls them by
        assert {
            "initializesetup",
            "initializewizard",
            "nextbuttonclick",
            "shouldskippage",
            "registerpreviousdata",
        } <= set(code)


def test_no_shared_password_or_owners_login_anywhere(signed, guide):
    text = SCRIPT.read_text(encoding="utf-8-sig") + guide
    assert not re.search(r"postgresql://[^@\s]*:[^@\s]*@", text)  # no password in any address
    assert "PGPASSWORD" not in text
    assert not re.search(r":praca:praca:", text)  # a pgpass line with the owner's login
    for found in re.finditer(r"postgresql://(praca|postgres)@", text):  # the owner's login: on the server only
        command = text[found.start() : found.start() + 120]
        on_the_server = "localhost" in command and ("pg-setup" in command or " init" in command)
        assert on_the_server or "the installer refuses" in command, command
    assert re.search(r"/DB=postgresql://mesa01@", guide)


def _bundle_tests_on_windows() -> tuple[int, int]:
    """(run, skipped) of tests/test_bundle.py on Windows: each test function, times its parameters; skipped when
    its body starts with an ``if os.name == "nt" …: pytest.skip(…)``."""
    tree = ast.parse((ROOT / "tests" / "test_bundle.py").read_text(encoding="utf-8"))
    run = skipped = 0
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
            continue
        count = 1
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "pytest.mark.parametrize":
                count *= len(decorator.args[1].elts)  # type: ignore[attr-defined]
        windows_skip = any(
            isinstance(statement, ast.If)
            and "os.name == 'nt'" in ast.unparse(statement.test)
            and "pytest.skip" in ast.unparse(statement.body[0])
            for statement in ast.walk(node)
        )
        if windows_skip:
            skipped += count
        else:
            run += count
    return run, skipped


def test_the_guide_counts_the_bundle_tests_and_has_no_outdated_python_note(guide):
    run, skipped = _bundle_tests_on_windows()
    assert f"`{run} passed, {skipped} skipped`" in guide
    assert "All four tests" not in guide
    assert "once PySide6 publishes wheels" not in guide
    assert "## 9. What was tested, and where" in guide and "must be tried on a Windows machine" in guide


# --------------------------------------------------------------------------- Inno Setup itself, under Wine
#
# PRACA_ISCC names Inno Setup's ISCC.exe (6.3 or newer) on this Linux machine; Wine runs it, and the installer it
# builds. On Debian: `dpkg --add-architecture i386 && apt-get install wine wine32 wine64 osslsigncode`, and ISCC
# from the npm package `innosetup` (`npm pack innosetup@6.4.1`, in package/bin/). Without it these are skipped.


def _windows_path(path: Path) -> str:
    """A Linux path as Wine's programs see it (drive Z: is the root)."""
    return "Z:" + str(path).replace("/", "\\")


@dataclass
class Wine:
    prefix: Path
    iscc: Path
    display: str

    def run(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        env = {**os.environ, "WINEPREFIX": str(self.prefix), "WINEDEBUG": "-all", "DISPLAY": self.display}
        env["WINEDLLOVERRIDES"] = "mscoree,mshtml="  # a new prefix never offers to download Mono or Gecko
        return subprocess.run(["wine", *args], capture_output=True, text=True, timeout=600, env=env, cwd=cwd)

    def wait(self) -> None:
        env = {**os.environ, "WINEPREFIX": str(self.prefix)}
        subprocess.run(["wineserver", "-w"], env=env, timeout=600, check=False)

    def environment(self, name: str, machine: bool = True) -> str | None:
        """The value of ``name`` in the machine's (or the user's) environment, as the installer left it."""
        key = (
            "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment" if machine else "HKCU\\Environment"
        )
        result = self.run("reg", "query", key, "/v", name)
        found = re.search(rf"{name}\s+REG_\w+\s+(.*)", result.stdout)
        return found.group(1).strip() if found else None

    def drive(self, windows_path: str) -> Path:
        return self.prefix / "drive_c" / windows_path.removeprefix("C:\\").replace("\\", "/")


@pytest.fixture(scope="module")
def wine(tmp_path_factory) -> Iterator[Wine]:
    iscc = os.environ.get("PRACA_ISCC", "").strip()
    if not iscc:
        pytest.skip("PRACA_ISCC não definido: o compilador do Inno Setup (make installer-check) não está nesta máquina")
    # asked for (make installer-check, CI): what it needs missing is a failure, not a skip
    for tool in ("wine", "wineserver", "Xvfb", "osslsigncode", "openssl"):
        assert shutil.which(tool), f"{tool} não está instalado (.ci/run diz como instalar)"
    assert Path(iscc).is_file(), iscc
    read, write = os.pipe()  # Xvfb picks a free display and says which
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24", "-nolisten", "tcp"], pass_fds=(write,)
    )
    os.close(write)
    with os.fdopen(read) as said:
        display = ":" + said.readline().strip()
    made = Wine(tmp_path_factory.mktemp("wine") / "prefix", Path(iscc), display)
    made.run("winecfg", "-v", "win10")  # MinVersion=10.0: Wine says Windows 7 by default
    yield made
    made.wait()
    server.terminate()
    server.wait(timeout=30)


@pytest.fixture(scope="module")
def built(wine, tmp_path_factory, qapp) -> dict[str, object]:
    """The script compiled twice by ISCC, over a stand-in bundle: unsigned (/DUnsigned), and signed through the
    sign tool "praca" — here osslsigncode with a throwaway certificate instead of signtool."""
    import sys

    root = tmp_path_factory.mktemp("iss")
    (root / "packaging" / "windows").mkdir(parents=True)
    shutil.copy(SCRIPT, root / "packaging" / "windows" / "praca.iss")
    bundle = root / "dist" / "praca"
    (bundle / "_internal").mkdir(parents=True)
    for name in ("praca.exe", "praca-gui.exe", "_internal/base_library.zip"):
        (bundle / name).write_bytes(b"stand-in for the bundle's " + name.encode())
    (root / "build").mkdir()
    sys.path.insert(0, str(ROOT / "packaging"))
    from make_ico import write_ico

    write_ico(root / "build" / "praca.ico")
    # the sign tool: a .cmd Inno Setup waits for, running a Linux script (Wine cannot wait for a Linux process, so
    # the script leaves "<file>.done" behind); each file it was given is listed in signed.txt
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Praca teste",
         "-keyout", str(root / "test.key"), "-out", str(root / "test.crt")],
        check=True, capture_output=True,
    )  # fmt: skip
    script = root / "sign.sh"
    script.write_text(
        "#!/bin/sh\n"
        'f="$(winepath -u "$1")"\n'
        f'echo "$f" >> {root}/signed.txt\n'
        f'osslsigncode sign -certs {root}/test.crt -key {root}/test.key -h sha256 -in "$f" -out "$f.s" >/dev/null 2>&1'
        ' && mv "$f.s" "$f"\n'
        'touch "$f.done"\n'
    )
    script.chmod(0o755)
    (root / "sign.cmd").write_text(
        f'@echo off\r\n{_windows_path(script)} %1\r\n:wait\r\nif exist "%~1.done" goto done\r\n'
        'ping -n 2 127.0.0.1 >nul\r\ngoto wait\r\n:done\r\ndel "%~1.done"\r\n',
        encoding="ascii",
    )
    source = _windows_path(root / "packaging" / "windows" / "praca.iss")
    unsigned = wine.run(str(wine.iscc), "/DAppVersion=9.9.9", "/DUnsigned", source, cwd=root)
    signed = wine.run(
        str(wine.iscc), "/DAppVersion=9.9.9", f"/Spraca=cmd /c {_windows_path(root / 'sign.cmd')} $f", source, cwd=root
    )
    forgotten = wine.run(str(wine.iscc), "/DAppVersion=9.9.9", source, cwd=root)  # neither /Spraca nor /DUnsigned
    return {"root": root, "unsigned": unsigned, "signed": signed, "forgotten": forgotten}


def test_inno_setups_compiler_accepts_the_script_signed_and_unsigned(built):
    """ISCC checks every directive, parameter and constant and compiles the Pascal of [Code]; no warning (the
    review's script drew one: per-user areas, HKCU and {userdocs}, in an administrative install)."""
    root = built["root"]
    for variant in ("unsigned", "signed"):
        result = built[variant]
        assert result.returncode == 0, result.stdout + result.stderr
        assert "Successful compile" in result.stdout and "Warning" not in result.stdout, result.stdout
    unsigned = root / "dist" / "installer" / "praca-setup-9.9.9-nao-assinado.exe"
    signed = root / "dist" / "installer" / "praca-setup-9.9.9.exe"
    assert unsigned.read_bytes().startswith(b"MZ") and signed.read_bytes().startswith(b"MZ")
    given = (root / "signed.txt").read_text().splitlines()
    assert [Path(line).name for line in given] == ["uninst.e32.tmp", "praca.exe", "praca-gui.exe", signed.name]
    check = subprocess.run(
        ["osslsigncode", "verify", "-in", str(signed), "-CAfile", str(root / "test.crt")],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0 and "Praca teste" in check.stdout, check.stdout + check.stderr
    bare = subprocess.run(["osslsigncode", "verify", "-in", str(unsigned)], capture_output=True, text=True)
    assert bare.returncode != 0
    # no unsigned installer by mistake: without the sign tool, and without /DUnsigned, nothing is built
    forgotten = built["forgotten"]
    assert forgotten.returncode != 0 and 'directive "SignTool" is invalid' in forgotten.stdout + forgotten.stderr


def test_the_installer_under_wine_refuses_bad_switches_chooses_the_database_and_keeps_it_on_upgrade(wine, built):
    """The built installer run silently, as a deployment tool would: every refusal ends with exit code 1, a line
    in the log and nothing installed; each choice leaves its variable (and only it); an upgrade keeps it."""
    root = built["root"]
    setup = _windows_path(root / "dist" / "installer" / "praca-setup-9.9.9-nao-assinado.exe")
    log = root / "setup.log"
    program = wine.drive("C:\\Program Files\\Praça") / "praca-gui.exe"
    desk_folder = wine.drive("C:\\ProgramData\\Praca")

    def install(*switches: str) -> int:
        log.unlink(missing_ok=True)
        return wine.run(setup, "/VERYSILENT", "/NORESTART", *switches, f"/LOG={_windows_path(log)}").returncode

    def said() -> str:
        return log.read_text(encoding="utf-8-sig", errors="replace")

    refused = {
        ("/ALLUSERS", "/DB=postgresql://praca@servidor:5432/praca"): "nunca o dono das tabelas",
        ("/ALLUSERS", "/DB=postgresql://mesa01:segredo@servidor:5432/praca"): "A senha não vai no endereço",
        ("/ALLUSERS", "/DB=postgresql://servidor/praca?user=praca"): "nunca o dono das tabelas",
        ("/ALLUSERS", "/DB=postgresql://mesa01@servidor/praca?password=segredo"): "A senha não vai no endereço",
        ("/ALLUSERS", "/DB=mysql://servidor/praca"): "deve começar por postgresql://",
        ("/ALLUSERS", "/DBSCOPE=todos"): "/DBSCOPE= aceita machine",
        ("/ALLUSERS", "/DBSCOPE=user", "/DB=postgresql://mesa01@servidor/praca"): "/DB= e /DBSCOPE= juntos",
        ("/CURRENTUSER", "/DBSCOPE=machine"): "/DBSCOPE=machine precisa da instalação para todos",
    }
    for switches, reason in refused.items():
        assert install(*switches) == 1, switches
        ours = [line for line in said().splitlines() if "Praça: " in line]
        assert len(ours) == 1 and reason in ours[0], (switches, said())
        assert "@" not in ours[0] and "segredo" not in ours[0]  # the address (and a password in it) not repeated
        assert not program.exists()

    assert install("/ALLUSERS", "/DBSCOPE=machine") == 0, said()
    assert program.exists() and desk_folder.is_dir()
    assert wine.environment("PRACA_DATA") == "C:\\ProgramData\\Praca" and wine.environment("PRACA_DB") is None

    assert install("/ALLUSERS", "/DB=postgresql://mesa01@servidor:5432/praca") == 0, said()
    assert wine.environment("PRACA_DB") == "postgresql://mesa01@servidor:5432/praca"
    assert wine.environment("PRACA_DATA") is None and desk_folder.is_dir()  # the choice not taken: its variable goes

    assert install("/ALLUSERS") == 0, said()  # an upgrade with no switch keeps the server's address
    assert wine.environment("PRACA_DB") == "postgresql://mesa01@servidor:5432/praca"

    uninstaller = _windows_path(wine.drive("C:\\Program Files\\Praça") / "unins000.exe")
    assert wine.run(uninstaller, "/VERYSILENT").returncode == 0
    wine.wait()  # the uninstaller runs on from a copy of itself
    assert wine.environment("PRACA_DB") is None and not program.exists()
    assert desk_folder.is_dir()  # the desk's data is never removed
