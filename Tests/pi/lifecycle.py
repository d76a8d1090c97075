"""The package's life on a machine after installation, in the wearable's root file system (a chroot,
while the disk image made from it boots): an upgrade keeps the user's config (also when the shipped
default changed, as dpkg --force-confold does unattended), and purge removes the config but keeps
the user's data unless they said yes to the debconf question."""
import os
import shutil
import subprocess

from image import chroot, mounted, sh


def repack(deb, work, version, conffile_note=None):
    """The same package as a later `version` (the programs unchanged); with `conffile_note`, its
    default config gains that comment line, as a release that changes the shipped config would."""
    tree = f"{work}/repack-{version}"
    shutil.rmtree(tree, ignore_errors=True)
    sh(["dpkg-deb", "-R", deb, tree])
    control = f"{tree}/DEBIAN/control"
    with open(control) as f:
        lines = [f"Version: {version}" if line.startswith("Version: ") else line for line in f.read().splitlines()]
    with open(control, "w") as f:
        f.write("\n".join(lines) + "\n")
    package = next(line.split(": ")[1] for line in lines if line.startswith("Package: "))
    if conffile_note:
        config = f"{tree}/etc/wearbridge/{package}.toml"
        with open(config, "a") as f:
            f.write(f"# {conffile_note}\n")
    out = f"{work}/{package}_{version}.deb"
    sh(["dpkg-deb", "-Znone", "-b", tree, out])
    shutil.rmtree(tree)
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def check(root, debs, work):
    """Runs the upgrade and purge checks in `root`; returns what was seen, for the report."""
    version = sh(["dpkg-deb", "-f", debs[0], "Version"]).stdout.strip()
    config = f"{root}/etc/wearbridge/wearbridge.toml"
    users = read(config)
    key = read(f"{root}/var/lib/wearbridge/identity.key.pem")
    seen = {}
    os.makedirs(f"{root}/var/cache/wearbridge-test", exist_ok=True)
    with mounted(root):
        # 1. An upgrade that ships the same default config: the user's stays, silently.
        same = repack(debs[0], work, f"{version}+up1")
        shutil.copy(same, f"{root}/var/cache/wearbridge-test/")
        chroot(root, "dpkg", "-i", f"/var/cache/wearbridge-test/{os.path.basename(same)}")
        assert read(config) == users, "an upgrade changed the user's config"
        assert not os.path.exists(config + ".dpkg-new") and not os.path.exists(config + ".dpkg-dist")
        enabled = sh(["systemctl", f"--root={root}", "is-enabled", "wearbridge.service"], check=False).stdout.strip()
        assert enabled == "enabled", f"the upgrade left the unit {enabled}"
        seen["upgrade"] = "config kept, unit still enabled"
        # 2. An upgrade whose default config changed too: unattended (--force-confold) the user's
        # stays and the new default lands beside it as .dpkg-dist.
        changed = repack(debs[0], work, f"{version}+up2", conffile_note="a later release's new comment")
        shutil.copy(changed, f"{root}/var/cache/wearbridge-test/")
        chroot(root, "dpkg", "-i", "--force-confdef", "--force-confold",
               f"/var/cache/wearbridge-test/{os.path.basename(changed)}")
        assert read(config) == users, "an upgrade with a new default config replaced the user's"
        assert b"a later release's new comment" in read(config + ".dpkg-dist"), "no .dpkg-dist beside it"
        seen["upgrade_changed_default"] = "config kept, new default as .dpkg-dist"
        # 3. Purge, asked nothing (noninteractive: the question's default): config gone, data kept.
        chroot(root, "dpkg", "--purge", "wearbridge")
        assert not os.path.exists(config), "purge left the config"
        assert read(f"{root}/var/lib/wearbridge/identity.key.pem") == key, "purge removed the user's data unasked"
        assert chroot(root, "getent", "passwd", "wearbridge", check=False).returncode == 0, "the user went"
        seen["purge_default"] = "config removed, /var/lib/wearbridge kept"
        # 4. Installed again, then purged by someone who said yes: the data goes too.
        shutil.copy(debs[0], f"{root}/var/cache/wearbridge-test/")
        chroot(root, "dpkg", "-i", f"/var/cache/wearbridge-test/{os.path.basename(debs[0])}")
        assert read(f"{root}/var/lib/wearbridge/identity.key.pem") == key, "reinstalling touched the data"
        subprocess.run(["chroot", root, "debconf-set-selections"], input="wearbridge wearbridge/purge_data boolean true\n",
                       text=True, check=True, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
        chroot(root, "dpkg", "--purge", "wearbridge")
        assert not os.path.exists(f"{root}/var/lib/wearbridge"), "purge with yes kept the data"
        seen["purge_yes"] = "config and /var/lib/wearbridge removed"
        # The phone's package the same way, in short: purge keeps its inbox unless asked.
        chroot(root, "dpkg", "--purge", "wearbridge-phone")
        assert os.path.isdir(f"{root}/var/lib/wearbridge-phone"), "purge removed the phone's inbox unasked"
        assert not os.path.exists(f"{root}/etc/wearbridge/wearbridge-phone.toml"), "purge left the phone's config"
        seen["phone_purge_default"] = "config removed, /var/lib/wearbridge-phone kept"
    return seen
