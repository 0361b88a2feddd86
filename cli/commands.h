/* commands.h - the subcommands of the peerwave program (cmd_*.c), for main.c's dispatch and
 * for `peerwave batch`, which runs some of them as queue jobs. */
#ifndef PW_CLI_COMMANDS_H
#define PW_CLI_COMMANDS_H

int cmd_sw(int argc, char **argv);
int cmd_dtw(int argc, char **argv);
int cmd_sat(int argc, char **argv);
int cmd_inthist(int argc, char **argv);
int cmd_heat(int argc, char **argv);
int cmd_sor(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_bfs(int argc, char **argv);

#endif
