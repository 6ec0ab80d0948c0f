/* data_path.h — where collsim finds a file the user named by a relative
 * path (a scenario, a platform, a baseline), so that an installed collsim
 * runs its shipped scenarios and platforms from any folder
 * (docs/platforms.md, "Where platform files are found"):
 *   1. where it was named: relative to the scenario that names it, or to
 *      the current folder for a path on the command line;
 *   2. in each folder of COLLSIM_PATH (colon-separated), in order;
 *   3. in the installed data folder (pkgdatadir, /usr/local/share/collsim by
 *      default), and in share/collsim beside the folder of the running
 *      collsim (an installation moved, or staged with DESTDIR).
 * In each folder of 2 and 3, NAME is tried as written, then its last
 * component in the kind's own subfolder (platforms/, scenarios/,
 * baselines/): a scenario copied out of the installation still finds its
 * "../platforms/star-64.yaml". An absolute NAME is taken as it is. */
#ifndef COLLSIM_DATA_PATH_H
#define COLLSIM_DATA_PATH_H

#include <stdbool.h>
#include <stddef.h>

#define DATA_PATH_MAX_FOLDERS 32

/* NAME found as above into OUT; false (OUT then holds NAME where it was
 * named, for the message that it cannot be opened) when no candidate
 * exists.  BASE is the folder NAME is relative to (NULL: the current one);
 * SUBFOLDER is the kind's ("platforms"), or NULL. */
bool data_path_find(const char *name, const char *base, const char *subfolder, char *out, size_t size);

/* The folders of steps 2 and 3 that exist, in order, into FOLDERS (at most
 * MAX of them, each a path of under 4096 bytes); their count. */
int data_path_folders(char folders[][4096], int max);

#endif
