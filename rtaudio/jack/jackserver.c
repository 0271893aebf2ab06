#include "jack/jackserver.h"
#include "jack/jack_client.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* The server's reason for dying: its first line that reads like an error, else its last line. */
static void last_log_line(const char *path, char *out, size_t outlen)
{
    FILE *f = fopen(path, "r");
    char line[240];
    int found = 0;
    out[0] = '\0';
    if (!f)
        return;
    while (!found && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || strncmp(line, "no message buffer", 17) == 0)
            continue;
        found = strcasestr(line, "fail") || strcasestr(line, "error") || strcasestr(line, "cannot") ||
                strcasestr(line, "too many") || strcasestr(line, "unknown");
        if (found || !strstr(line, "Copyright"))
            snprintf(out, outlen, "%s", line);
    }
    fclose(f);
}

int jackserver_start(struct private_server *s, const char *device, int rate_hz, int period_frames,
                     int nperiods, int priority, char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "rtjitter-%d", (int)getpid());
    snprintf(s->driver, sizeof(s->driver), "%s", device ? "alsa" : "dummy");
    snprintf(s->device, sizeof(s->device), "%s", device ? device : "");
    s->rate_hz = rate_hz;
    s->period_frames = period_frames;
    s->nperiods = nperiods;
    s->priority = priority;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(s->log_path, sizeof(s->log_path), "%s/%s.jackd.log", tmp, s->name);

    char rate[16], period[16], np[16], prio[16];
    snprintf(rate, sizeof(rate), "%d", rate_hz);
    snprintf(period, sizeof(period), "%d", period_frames);
    snprintf(np, sizeof(np), "%d", nperiods);
    snprintf(prio, sizeof(prio), "%d", priority);
    const char *argv[24];
    int a = 0;
    argv[a++] = "jackd";
    argv[a++] = "-n";
    argv[a++] = s->name;
    argv[a++] = "-R";
    argv[a++] = "-P";
    argv[a++] = prio;
    argv[a++] = "-d";
    argv[a++] = s->driver;
    if (device) {
        argv[a++] = "-d";
        argv[a++] = device;
        argv[a++] = "-n";
        argv[a++] = np;
    }
    argv[a++] = "-r";
    argv[a++] = rate;
    argv[a++] = "-p";
    argv[a++] = period;
    argv[a] = NULL;

    int fd = open(s->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", s->log_path, strerror(errno));
        return -errno;
    }
    pid_t ppid = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fd);
        snprintf(err, errlen, "fork: %s", strerror(e));
        return -e;
    }
    if (pid == 0) {
        /* Die with rtjitter, even when it is killed with SIGKILL. SIGTERM, not SIGKILL: jackd then removes its
         * entry from JACK's shared-memory registry, which holds only 8 servers and keeps dead ones. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != ppid)
            _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        setpgid(0, 0); /* a Ctrl-C at the terminal goes to rtjitter, which stops the server in order */
        dup2(fd, 1);
        dup2(fd, 2);
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        execvp("jackd", (char *const *)argv);
        fprintf(stderr, "cannot run jackd: %s\n", strerror(errno));
        _exit(127);
    }
    close(fd);
    s->pid = pid;
    for (int waited = 0; waited < 5000; waited += 100) {
        if (!jackserver_alive(s)) {
            char last[256];
            last_log_line(s->log_path, last, sizeof(last));
            snprintf(err, errlen, "private jackd (%s driver) exited at start%s%s", s->driver,
                     last[0] ? ": " : "", last);
            unlink(s->log_path);
            return -ECHILD;
        }
        if (rtj_jack_server_running(s->name))
            return 0;
        nap_ms(100);
    }
    snprintf(err, errlen, "private jackd did not accept clients within 5 s");
    jackserver_stop(s);
    return -ETIMEDOUT;
}

int jackserver_alive(struct private_server *s)
{
    if (s->pid <= 0)
        return 0;
    int st;
    pid_t r = waitpid(s->pid, &st, WNOHANG);
    if (r == s->pid) {
        s->pid = -s->pid; /* reaped: remember it was there */
        return 0;
    }
    return r == 0;
}

void jackserver_stop(struct private_server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        kill(s->pid, SIGCONT); /* a stopped server would keep the SIGTERM pending */
        int st;
        for (int waited = 0; waited < 1000; waited += 20) {
            if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
                s->pid = 0;
                break;
            }
            nap_ms(20);
        }
        if (s->pid > 0) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &st, 0);
        }
    }
    s->pid = 0;
    if (s->log_path[0])
        unlink(s->log_path);
}
