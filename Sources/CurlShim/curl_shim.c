#include "curl_shim.h"

CURLcode pm_setopt_long(CURL *easy, CURLoption option, long value) { return curl_easy_setopt(easy, option, value); }
CURLcode pm_setopt_string(CURL *easy, CURLoption option, const char *value) { return curl_easy_setopt(easy, option, value); }
CURLcode pm_setopt_ptr(CURL *easy, CURLoption option, void *value) { return curl_easy_setopt(easy, option, value); }
CURLcode pm_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) { return curl_easy_setopt(easy, option, value); }

CURLcode pm_setopt_write(CURL *easy, pm_data_cb callback, void *ctx) {
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
    return rc != CURLE_OK ? rc : curl_easy_setopt(easy, CURLOPT_WRITEDATA, ctx);
}

CURLcode pm_setopt_header(CURL *easy, pm_data_cb callback, void *ctx) {
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, callback);
    return rc != CURLE_OK ? rc : curl_easy_setopt(easy, CURLOPT_HEADERDATA, ctx);
}

CURLcode pm_setopt_xferinfo(CURL *easy, pm_xferinfo_cb callback, void *ctx) {
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, callback);
    if (rc == CURLE_OK) rc = curl_easy_setopt(easy, CURLOPT_XFERINFODATA, ctx);
    return rc != CURLE_OK ? rc : curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
}

CURLcode pm_setopt_opensocket(CURL *easy, pm_opensocket_cb callback, void *ctx) {
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
    return rc != CURLE_OK ? rc : curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, ctx);
}

CURLcode pm_setopt_prereq(CURL *easy, pm_prereq_cb callback, void *ctx) {
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, callback);
    return rc != CURLE_OK ? rc : curl_easy_setopt(easy, CURLOPT_PREREQDATA, ctx);
}

CURLcode pm_setopt_body(CURL *easy, const void *data, curl_off_t size) {
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, size);
    // A NULL COPYPOSTFIELDS would make libcurl read the body from stdin.
    return rc != CURLE_OK ? rc : curl_easy_setopt(easy, CURLOPT_COPYPOSTFIELDS, data ? data : "");
}

CURLcode pm_setopt_aws_sigv4(CURL *easy, const char *provider, const char *user, const char *password) {
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_AWS_SIGV4, provider);
    if (rc == CURLE_OK) rc = curl_easy_setopt(easy, CURLOPT_USERNAME, user);
    return rc != CURLE_OK ? rc : curl_easy_setopt(easy, CURLOPT_PASSWORD, password);
}

CURLcode pm_getinfo_long(CURL *easy, CURLINFO info, long *out) { return curl_easy_getinfo(easy, info, out); }
CURLcode pm_getinfo_string(CURL *easy, CURLINFO info, const char **out) { return curl_easy_getinfo(easy, info, out); }
CURLcode pm_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *out) { return curl_easy_getinfo(easy, info, out); }
CURLcode pm_getinfo_double(CURL *easy, CURLINFO info, double *out) { return curl_easy_getinfo(easy, info, out); }
CURLcode pm_getinfo_private(CURL *easy, void **out) { return curl_easy_getinfo(easy, CURLINFO_PRIVATE, out); }

CURLMcode pm_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl_multi_setopt(multi, option, value); }
