/*
 * dwrite: one write(2) to a debugfs file, for tests/kernel/debugfs.sh.
 * busybox's echo cannot write zero bytes or a whole file at once, nor
 * print which errno a write failed with.
 *
 *   dwrite FILE TEXT       write TEXT (no newline added)
 *   dwrite -f FILE SRC     write the whole of file SRC in one call
 *   dwrite -z FILE         write zero bytes
 *   dwrite -n N FILE       write N bytes of "x"
 *
 * Prints "ok N" (N bytes accepted) or the errno's name, e.g. "EINVAL";
 * exits 0 when the write was made, 2 on a usage or setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case E2BIG: return "E2BIG";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	case EFAULT: return "EFAULT";
	default: return strerror(e);
	}
}

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) || !(buf = malloc(st.st_size + 1)) ||
	    read(fd, buf, st.st_size) != st.st_size)
		return NULL;
	close(fd);
	*len = st.st_size;
	return buf;
}

int main(int argc, char **argv)
{
	const char *path;
	char *buf;
	size_t len;
	ssize_t n;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "-f")) {
		path = argv[2];
		buf = slurp(argv[3], &len);
	} else if (argc == 4 && !strcmp(argv[1], "-n")) {
		path = argv[3];
		len = strtoul(argv[2], NULL, 0);
		buf = malloc(len + 1);
		if (buf)
			memset(buf, 'x', len);
	} else if (argc == 3 && !strcmp(argv[1], "-z")) {
		path = argv[2];
		len = 0;
		buf = strdup("");
	} else if (argc == 3) {
		path = argv[1];
		buf = argv[2];
		len = strlen(buf);
	} else {
		fprintf(stderr, "usage: dwrite FILE TEXT | -f FILE SRC | -z FILE | -n N FILE\n");
		return 2;
	}
	if (!buf) {
		perror("dwrite");
		return 2;
	}
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errno_name(errno));
		return 0;
	}
	n = write(fd, buf, len);
	if (n < 0)
		printf("%s\n", errno_name(errno));
	else
		printf("ok %zd\n", n);
	close(fd);
	return 0;
}
