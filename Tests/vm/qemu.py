"""What every test VM shares: qemu's machine under software emulation (no KVM here), and how a
guest kernel that died or hung before anything of ours ran is told apart from a failure of ours.

Debian's 6.12 kernel under multi-threaded TCG now and then dies in early boot (an "Oops: int3"
while the kernel patches its own code on one vCPU and runs it on the other), or its second vCPU
never sees a timer tick and RCU reports a stall every 21 s with nothing else happening. Such a boot
is booted again, at most twice, and said so; any other failure is not."""

# q35 with two vCPUs and 1 GiB; a TCG translation cache of 256 MB keeps qemu near 600 MB resident
# (1.4 GB with the default).
MACHINE = ["-machine", "q35", "-accel", "tcg,thread=multi,tb-size=256", "-cpu", "max", "-smp", "2", "-m", "1024",
           "-nographic", "-no-reboot"]
# The virtual Raspberry Pi (Tests/pi --arch arm64): qemu's `virt` with Cortex-A53 cores, a Pi
# 3's and a Zero 2 W's, and a Pi 3's 1 GiB; no stdio of qemu's own (the PL011 is the GPS's).
PI_MACHINE = ["-machine", "virt", "-accel", "tcg,thread=multi,tb-size=256", "-cpu", "cortex-a53", "-smp", "2",
              "-m", "1024", "-display", "none", "-monitor", "none", "-no-reboot"]
BOOTS = 3
RCU_STALL = "rcu_preempt detected stalls"


def early_boot_failure(console):
    """Why the guest kernel failed before userspace ran, from its console; None if it did not."""
    if "Kernel panic" in console:
        return "the guest kernel panicked"
    if console.count(RCU_STALL) >= 3:
        return "the guest kernel hung (three RCU stalls)"
    return None
