"""Ctrl-C may land anywhere, also while Numba boxes a kernel's result: the process
must survive it and answer the same afterwards (a NamedTuple returned from a kernel
crashed it: Numba boxes one by calling its class, Python code where the signal
handler raises).  Run in a child process, so a crash fails the test, not pytest."""
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import signal, sys
    import numpy as np
    import pokereval as pe
    from pokereval import kernels as K

    def spot():
        return pe.equity("omaha-hilo", ["AhAd2c3s", "KK**"], samples=3000, seed=7)

    def counts(r):
        return [p.outcomes.tolist() for p in r.players]

    KT = K.kernel_tables()
    holes = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.uint8)
    clean_h = K.prep_holdings(KT, holes, 1)
    clean = spot()

    def fire(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, fire)
    rounds = {"features": 0, "equity": 0}
    for i in range(1500):  # interrupts 10..400 us into a loop of calls
        try:
            signal.setitimer(signal.ITIMER_REAL, 1e-5 * (1 + i % 40))
            while True:
                K.prep_holdings(KT, holes, 1)
        except KeyboardInterrupt:
            rounds["features"] += 1
    for i in range(150):  # an interrupt 0.1..3 ms into a Monte Carlo run (which returns
        try:              # its partial result, or lets the interrupt through)
            signal.setitimer(signal.ITIMER_REAL, 1e-4 * (1 + i % 30))
            r = spot()
            assert r.partial or counts(r) == counts(clean)
        except KeyboardInterrupt:
            pass
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        except KeyboardInterrupt:  # it fired just after the run
            pass
        rounds["equity"] += 1
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    after = K.prep_holdings(KT, holes, 1)
    assert all(np.array_equal(a, b) for a, b in zip(after, clean_h))
    assert counts(spot()) == counts(clean)
    print(rounds)
""")


def test_interrupts_while_kernels_return_leave_the_process_sound():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == "{'features': 1500, 'equity': 150}"
