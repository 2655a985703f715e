#pragma once
// Typed entry points for libcurl's variadic calls, which Swift cannot import.
// One wrapper per argument kind; no logic lives here.
#include <curl/curl.h>

typedef size_t (*pm_data_cb)(char *data, size_t size, size_t count, void *ctx);
typedef int (*pm_xferinfo_cb)(void *ctx, curl_off_t dltotal, curl_off_t dlnow,
                              curl_off_t ultotal, curl_off_t ulnow);

typedef curl_socket_t (*pm_opensocket_cb)(void *ctx, curlsocktype purpose, struct curl_sockaddr *address);
typedef int (*pm_prereq_cb)(void *ctx, char *primary_ip, char *local_ip, int primary_port, int local_port);

CURLcode pm_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode pm_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode pm_setopt_ptr(CURL *easy, CURLoption option, void *value);
CURLcode pm_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value);
CURLcode pm_setopt_write(CURL *easy, pm_data_cb callback, void *ctx);
CURLcode pm_setopt_header(CURL *easy, pm_data_cb callback, void *ctx);
/// Also turns NOPROGRESS off, without which the callback never runs.
CURLcode pm_setopt_xferinfo(CURL *easy, pm_xferinfo_cb callback, void *ctx);
/// CURLOPT_OPENSOCKETFUNCTION and its data: the callback sees each address before it is
/// connected to, and opens the socket (or returns CURL_SOCKET_BAD to refuse it).
CURLcode pm_setopt_opensocket(CURL *easy, pm_opensocket_cb callback, void *ctx);
/// CURLOPT_PREREQFUNCTION and its data: called before each request is sent, on a new or a
/// reused connection, with the address connected to.
CURLcode pm_setopt_prereq(CURL *easy, pm_prereq_cb callback, void *ctx);

/// A request body, copied by libcurl (COPYPOSTFIELDS after POSTFIELDSIZE_LARGE, so it may hold
/// NUL bytes). This makes the request a POST; CURLOPT_CUSTOMREQUEST renames it. NULL is an empty body.
CURLcode pm_setopt_body(CURL *easy, const void *data, curl_off_t size);
/// AWS Signature V4 signing: `provider` as CURLOPT_AWS_SIGV4 ("aws:amz:REGION:SERVICE"), the key
/// pair as CURLOPT_USERNAME and CURLOPT_PASSWORD (so a colon in the access key is kept).
CURLcode pm_setopt_aws_sigv4(CURL *easy, const char *provider, const char *user, const char *password);

CURLcode pm_getinfo_long(CURL *easy, CURLINFO info, long *out);
CURLcode pm_getinfo_string(CURL *easy, CURLINFO info, const char **out);
CURLcode pm_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *out);
CURLcode pm_getinfo_double(CURL *easy, CURLINFO info, double *out);
CURLcode pm_getinfo_private(CURL *easy, void **out);

CURLMcode pm_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
