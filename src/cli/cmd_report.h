/* `rtjitter report` and `rtjitter compare`: render stored reports again, and side by side. */
#ifndef RTJ_CMD_REPORT_H
#define RTJ_CMD_REPORT_H
/* Both return the process exit status: 0 ok, 2 bad usage or a file that is not a readable report. */
int cmd_report(int argc, char **argv, const char *command_line);
int cmd_compare(int argc, char **argv, const char *command_line);
#endif
