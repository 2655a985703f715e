// microhttpd.h uses size_t, va_list, sockaddr and fd_set without including all of their headers.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>
