# Varnish in front of `pressroom serve`: cached answers per set of rights (the user-context hash), purged by
# surrogate key (xkey) when a write commits. Needs Varnish 7 and varnish-modules (vmod xkey):
#   varnishd -a :6081 -f /etc/varnish/pressroom.vcl $(grep -v '^#' varnishd.params)
# (varnishd.params beside this file: the recommended parameters, the ones the tests and the bench use)
# and on the application: PRESSROOM_HTTP_CACHE_PURGE=varnish:http://127.0.0.1:6081 (README, "HTTP cache").
vcl 4.1;

import xkey;

# The application (`pressroom serve --port 8080`).
backend pressroom {
    .host = "127.0.0.1";
    .port = "8080";
}

# Who may purge: the application's hosts only.
acl invalidators {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    # Purge by surrogate keys: `xkey-purge` removes, `xkey-softpurge` expires (kept for grace; the
    # application sends it when PRESSROOM_HTTP_CACHE_SOFT_PURGE is on).
    if (req.method == "PURGEKEYS") {
        if (client.ip !~ invalidators) {
            return (synth(405, "Not allowed"));
        }
        if (req.http.xkey-purge) {
            set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        } elsif (req.http.xkey-softpurge) {
            set req.http.n-gone = xkey.softpurge(req.http.xkey-softpurge);
        } else {
            return (synth(400, "Neither xkey-purge nor xkey-softpurge"));
        }
        return (synth(200, "Purged " + req.http.n-gone + " objects"));
    }
    if (req.restarts == 0) {
        # Nobody chooses their own hash or bypass.
        unset req.http.X-User-Context-Hash;
        unset req.http.X-Pressroom-Original-Url;
        unset req.http.X-Pressroom-Original-Accept;
        unset req.http.X-Pressroom-No-Hash;
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    if (req.http.X-Pressroom-No-Hash) {
        return (pass);  # the hash could not be had (bad credentials): the application answers
    }
    # The user-context-hash flow: first ask (from the cache, per credential) for the caller's hash ...
    if (req.restarts == 0 && req.url != "/_fos_user_context_hash") {
        set req.http.X-Pressroom-Original-Url = req.url;
        set req.http.X-Pressroom-Original-Accept = req.http.Accept;
        set req.url = "/_fos_user_context_hash";
        set req.http.Accept = "application/vnd.fos.user-context-hash";
        return (hash);
    }
    # ... then look the request up varying on it (the application answers Vary: X-User-Context-Hash).
    return (hash);
}

sub vcl_hash {
    if (req.url == "/_fos_user_context_hash") {
        # One hash answer per credential.
        hash_data(req.http.Cookie);
        hash_data(req.http.Authorization);
    }
}

sub vcl_backend_response {
    # Grace: an expired (or soft-purged) answer may be served while a fresh one is fetched.
    set beresp.grace = 1h;
}

sub vcl_deliver {
    if (req.url == "/_fos_user_context_hash" && req.http.X-Pressroom-Original-Url) {
        if (resp.status == 200 && resp.http.X-User-Context-Hash) {
            set req.http.X-User-Context-Hash = resp.http.X-User-Context-Hash;
        } else {
            set req.http.X-Pressroom-No-Hash = "1";
        }
        set req.url = req.http.X-Pressroom-Original-Url;
        if (req.http.X-Pressroom-Original-Accept) {
            set req.http.Accept = req.http.X-Pressroom-Original-Accept;
        } else {
            unset req.http.Accept;
        }
        unset req.http.X-Pressroom-Original-Url;
        unset req.http.X-Pressroom-Original-Accept;
        return (restart);
    }
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    # Keys and the hash are the cache's business.
    unset resp.http.xkey;
    unset resp.http.Surrogate-Key;  # sent when a Fastly endpoint is configured too
    unset resp.http.X-User-Context-Hash;
}
