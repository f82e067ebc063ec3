"""What ``deploy/`` runs: the systemd units of a Raspberry Pi or home server and the
container of a public host name commands that exist, with the settings the README promises."""
import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

from scorekeeper import cli

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"


def unit(name: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit file: each section's keys, each with all its values in order."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in (DEPLOY / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def environment(service: dict[str, list[str]]) -> dict[str, str]:
    return dict(item.split("=", 1) for value in service.get("Environment", [])
                for item in shlex.split(value))


def kierki_args(command: str) -> list[str]:
    """The arguments of a command line that runs the ``kierki`` script."""
    program, *args = shlex.split(command)
    assert Path(program).name == "kierki", command
    return args


def test_the_kierki_script_is_the_cli():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["kierki"] == "scorekeeper.cli:main"


def test_serve_help_lists_every_setting_with_its_variable():
    out = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "serve", "--help"],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    for setting in cli.SETTINGS:
        assert setting.flag in out and setting.env in out, setting.name


def test_the_server_unit_restarts_and_keeps_its_data_under_var_lib():
    service = unit("kierki.service")["Service"]
    assert service["Restart"] == ["on-failure"]
    assert service["User"] == ["kierki"]  # a user of its own, not root
    env = environment(service)
    assert env["KIERKI_INSTANCE"] == "/var/lib/kierki"
    assert service["StateDirectory"] == ["kierki"]
    assert service["ProtectSystem"] == ["strict"]
    assert service["ReadWritePaths"] == ["/var/lib/kierki"]
    assert service["NoNewPrivileges"] == ["yes"] and service["ProtectHome"] == ["yes"]
    (command,) = service["ExecStart"]
    args = cli.parser().parse_args(kierki_args(command))
    assert args.command == "serve"
    app_settings = cli.server_settings(args, type("App", (), {"config": {}})(), env)
    assert app_settings["host"] == "127.0.0.1" and app_settings["port"] == 5000  # for Caddy
    assert unit("kierki.service")["Install"]["WantedBy"] == ["multi-user.target"]


def test_the_backup_runs_daily_and_keeps_fourteen_copies():
    timer = unit("kierki-backup.timer")
    assert timer["Timer"]["OnCalendar"] == ["daily"]
    assert timer["Timer"]["Persistent"] == ["yes"]  # a day missed (machine off): at boot
    assert timer["Install"]["WantedBy"] == ["timers.target"]
    service = unit("kierki-backup.service")["Service"]
    assert service["Type"] == ["oneshot"] and service["User"] == ["kierki"]
    assert environment(service)["KIERKI_INSTANCE"] == "/var/lib/kierki"
    (command,) = service["ExecStart"]
    args = cli.parser().parse_args(kierki_args(command))
    assert args.command == "backup" and args.keep == 14
    folder = str(args.path)
    assert folder.startswith("/var/lib/kierki/")
    assert "kierki/backups" in service["StateDirectory"][0].split()  # made by systemd
    assert any(folder.startswith(p) for p in service["ReadWritePaths"])


def containerfile() -> list[tuple[str, str]]:
    """The Containerfile's instructions, continued lines joined."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Containerfile").read_text(encoding="utf-8"))
    return [tuple(line.strip().split(None, 1)) for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_the_container_runs_kierki_serve_as_a_user_with_data_in_a_volume():
    steps = containerfile()
    assert steps[0] == ("FROM", "docker.io/library/python:3.11-slim")
    (cmd,) = [json.loads(arg) for op, arg in steps if op == "CMD"]
    assert cmd == ["kierki", "serve", "--host", "0.0.0.0"]
    args = cli.parser().parse_args(cmd[1:])
    assert args.command == "serve" and args.host == "0.0.0.0"
    users = [arg for op, arg in steps if op == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert ("VOLUME", "/data") in steps
    env = " ".join(arg for op, arg in steps if op == "ENV")
    assert "KIERKI_INSTANCE=/data" in env
    packages = " ".join(arg for op, arg in steps if op == "RUN")
    for package in ("libpango-1.0-0", "libpangoft2-1.0-0", "fonts-dejavu-core"):
        assert package in packages
    (check,) = [arg for op, arg in steps if op == "HEALTHCHECK"]
    assert "/healthz" in check
    copied = [arg.split()[0] for op, arg in steps if op == "COPY"]
    for path in copied:  # what the image is built from exists in the checkout
        assert (ROOT / path).exists(), path


def test_compose_puts_caddy_beside_the_app_and_the_data_in_a_named_volume():
    text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    assert "dockerfile: deploy/Containerfile" in text
    assert "- kierki-data:/data" in text and re.search(r"^volumes:\n  kierki-data:", text,
                                                        re.MULTILINE)
    assert "./Caddyfile.public:/etc/caddy/Caddyfile:ro" in text
    assert 'KIERKI_UPSTREAM: "kierki:5000"' in text
    assert "/healthz" in text and "condition: service_healthy" in text
    # the app trusts Caddy's X-Forwarded-For on 0.0.0.0 only because only Caddy reaches it
    assert 'KIERKI_TRUST_PROXY_ANYWHERE: "1"' in text and "ports:" not in text.split(
        "caddy:")[0]
