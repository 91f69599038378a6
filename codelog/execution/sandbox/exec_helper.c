/* codelog-exec: the wrapper every sandboxed program starts under (built by setup.py).

   codelog-exec [-k] [-c FD]... [-r FD [-n]] -- PROGRAM [ARGS...]

   -k     join a fresh, empty session keyring, then go on: run first, on the host, so the
          whole box (bwrap, the program, a warm zygote) holds no reference to the judge's
          session keyring (pam_keyinit's @s and whatever secrets it holds).
   -c FD  write "0" to FD, an open cgroup.procs of the run's cgroup (cgroup v1 or v2): this
          process joins it, and every process the program starts is born in it. The file was
          opened by codelog, so the write is checked against codelog's credentials.
   -r FD  fork PROGRAM, wait for it and write "STATUS CPU_MS RSS_KB\n" to FD, a pipe only
          this process holds (closed in the program before exec). As a child subreaper, every
          orphan of the program comes back here and is reaped here too: CPU_MS is the user +
          system time of every process the program started, orphans included, and RSS_KB the
          largest peak resident set among them. The wrappers before this one were forked from
          the Python worker, whose peak RSS (~150 MB) a forked child starts from; this process
          is a few hundred KB.
   -n     with -r, in a PID namespace of the run's own: when PROGRAM exits, every process left
          in the namespace is killed (the run ends with the program) and reaped before the
          report, so what they used counts and nothing they would print later is output.
   Without -r, PROGRAM is exec'd in place.

   The report pipe is also a lifeline: its reader is the judge's worker. If the worker dies
   (the judge killed with SIGKILL), the pipe breaks and this process kills the program (with
   -n, everything in the namespace) and exits. bwrap's --die-with-parent alone misses a parent
   that dies while bwrap is still starting: its namespace's init then outlives the judge.

   Not dumpable: the program (same uid, after setpriv) cannot open /proc/<this>/fd to forge
   the report. The program's exec makes it dumpable again, as any program is. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define KEYCTL_JOIN_SESSION_KEYRING 1

static void nothing(int sig) { (void)sig; }

static long ms(struct timeval t) { return (long)t.tv_sec * 1000 + t.tv_usec / 1000; }

/* Reap every child that has ended (block: wait for all of them); add up what each used.
   wait4's figures for a process include its own reaped descendants', so each process counts
   once, in whichever ancestor reaped it. */
static void reap(int block, long *cpu_ms, long *rss_kb) {
    for (;;) {
        int status;
        struct rusage ru;
        pid_t got = wait4(-1, &status, block ? __WALL : (__WALL | WNOHANG), &ru);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return;
        *cpu_ms += ms(ru.ru_utime) + ms(ru.ru_stime);
        if (ru.ru_maxrss > *rss_kb) *rss_kb = ru.ru_maxrss;
    }
}

int main(int argc, char **argv) {
    int report = -1, killall = 0, i = 1;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else if (!strcmp(argv[i], "-k")) {
            /* ENOSYS (no keyrings in this kernel) or EPERM (a container's filter): then there
               is no keyring to reach from here either. */
            syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL);
        } else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
            int fd = atoi(argv[++i]);
            if (write(fd, "0", 1) != 1) {
                perror("codelog-exec: joining the run's cgroup");
                return 127;
            }
            close(fd);
        } else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
            report = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-n")) {
            killall = 1;
        } else {
            fprintf(stderr, "codelog-exec: unknown option %s\n", argv[i]);
            return 127;
        }
    }
    if (i >= argc) return 127;
    if (report < 0) {
        execv(argv[i], argv + i);
        perror(argv[i]);
        return 127;
    }
    /* kill(-1) spares only this process and the namespace's init: it is safe only as the
       init (unshare) or its first child (bwrap), never on the host. */
    if (killall && getpid() > 2) killall = 0;
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    /* SIGCHLD stays blocked except inside ppoll: a child that ends between wait4 and ppoll
       interrupts ppoll at once, so waiting on the lifeline costs the run's end nothing. */
    struct sigaction on_child = {0};
    on_child.sa_handler = nothing;
    sigaction(SIGCHLD, &on_child, NULL);
    sigset_t chld, unblocked;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &unblocked);
    pid_t pid = fork();
    if (pid < 0) return 127;
    if (pid == 0) {
        close(report);
        sigprocmask(SIG_SETMASK, &unblocked, NULL);
        execv(argv[i], argv + i);
        perror(argv[i]);
        _exit(127);
    }
    int status = 0;
    long cpu_ms = 0, rss_kb = 0;
    for (;;) {
        struct rusage ru;
        int st;
        pid_t got = wait4(-1, &st, __WALL | WNOHANG, &ru);
        if (got > 0) {
            cpu_ms += ms(ru.ru_utime) + ms(ru.ru_stime);
            if (ru.ru_maxrss > rss_kb) rss_kb = ru.ru_maxrss;
            if (got == pid) {
                status = st;
                break;
            }
            continue;
        }
        if (got < 0 && errno != EINTR) return 127;
        if (got < 0) continue;
        struct pollfd lifeline = {report, 0, 0}; /* POLLERR: the reader is gone */
        if (ppoll(&lifeline, 1, NULL, &unblocked) > 0 &&
            (lifeline.revents & (POLLERR | POLLHUP | POLLNVAL))) {
            if (killall)
                for (int round = 0; round < 1000 && kill(-1, SIGKILL) == 0; round++) reap(0, &cpu_ms, &rss_kb);
            else
                kill(pid, SIGKILL);
            return 127;
        }
    }
    if (killall) {
        /* A fork bomb may fork between two rounds: until nothing is left to signal. */
        for (int round = 0; round < 1000 && kill(-1, SIGKILL) == 0; round++) reap(0, &cpu_ms, &rss_kb);
        reap(1, &cpu_ms, &rss_kb);
    } else {
        reap(0, &cpu_ms, &rss_kb);
    }
    dprintf(report, "%d %ld %ld\n", status, cpu_ms, rss_kb);
    close(report);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
