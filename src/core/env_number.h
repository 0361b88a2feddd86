/* env_number.h - a switch in the environment that holds a whole number, read strictly (one rule
 * for every such switch: "abc", "1e3", "5x", empty and out-of-range values were taken as 0, as 1
 * or as unset, each switch its own way). */
#ifndef PW_ENV_NUMBER_H
#define PW_ENV_NUMBER_H

/* 1 with *out where name is set to a whole number in [least, most]; 0 where it is unset; -1 where
 * it is set to anything else (the caller refuses it by name). */
int pw_env_number(const char *name, long long least, long long most, long long *out);

#endif
