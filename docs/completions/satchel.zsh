#compdef satchel

__satchel_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__satchel_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __satchel_complete "${completions[@]:0:-1}"
    fi
}

__satchel_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_satchel() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'decode:Decode a payload as a response body and print the value as canonical JSON.'
            'encode:Read parameters as JSON and print the serialized body.'
            'request:Send an HTTP request and print the decoded response.'
            'serve:Serve fixture endpoints (echo, every format, batches, byte ranges) on loopback.'
            'demo:Tour Satchel against an embedded server: every serializer, uploads, batches, resumes, TLS pinning.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        decode|encode|request|serve|demo|help)
            "_satchel_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_satchel_decode() {
    local -i ret=1
    local -ar arg_specs=(
        '(--content-type -c)'{--content-type,-c}'[The payload'\''s media type.]:content-type:'
        '--pretty[Indent the output.]'
        '--big-integers[JSON integers beyond 64 bits\: throw, double or string.]:big-integers:'
        '--remove-nulls[Drop JSON members and elements that are null.]'
        '--no-top-level-scalars[Reject a JSON document that is a bare number, string, boolean or null.]'
        '--raw-parts[Multipart\: leave part bodies undecoded (text as strings, anything else as $data).]'
        '--lenient[Multipart\: also accept a repeated Content-Disposition or Content-Type (the first wins), another disposition than form-data, a malformed filename*, a boundary outside RFC 2046 and a part that starts with the boundary.]'
        '--crlf-only[Multipart\: accept CRLF line endings only (a bare LF is an error); by default CRLF and LF both end a line.]'
        '--dump-pixels[Images\: write the decoded pixels as raw 8-bit RGBA rows to FILE.]:FILE:'
        '--image-scale[JPEG\: decode at 1/N of the size (1, 2, 4 or 8) by DCT scaling.]:image-scale:'
        '--xml-events[XML\: decode with the event (SAX) parser, without building a tree.]'
        '--xpath[XML\: print the nodes this XPath expression selects, as a JSON array.]:xpath:'
        '*--namespace[XML\: a prefix for --xpath or --each, as p=URI (repeatable).]:p=URI:'
        '--each[Print the elements at PATH of one large JSON or XML document as they complete (a JSON Pointer to an array, or an XML element path).]:PATH:'
        '--max-body-bytes[Most bytes of input read (default 100 MiB).]:max-body-bytes:'
        '--max-depth[Deepest nesting accepted (default 512).]:max-depth:'
        '--max-string-bytes[Longest string accepted, in bytes (default 32 MiB).]:max-string-bytes:'
        '--max-pairs[Most form pairs or object members (default 10000).]:max-pairs:'
        '--max-parts[Most parts in a multipart body (default 1000).]:max-parts:'
        '--max-part-header-bytes[Most header bytes in one multipart part (default 16 KiB).]:max-part-header-bytes:'
        '--max-image-pixels[Most pixels in a decoded image (default 100000000).]:max-image-pixels:'
        '--max-entity-expansions[Most XML entity references expanded (default 10000).]:max-entity-expansions:'
        ':file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_satchel_encode() {
    local -i ret=1
    local -ar ___as=('form' 'json' 'multipart' 'xml' 'plist' 'plist-binary')
    local -ar arg_specs=(
        '--as[The body format\: form, json, multipart, xml, plist, plist-binary.]:as:{__satchel_complete "${___as[@]}"}'
        '--method[The request method, which decides between query string and body.]:method:'
        '--include-headers[Print the request line and headers before the body.]'
        '--pretty[JSON\: indent the output.]'
        '--sorted-keys[JSON\: write object members sorted by key.]'
        '--without-escaping-slashes[JSON\: write '\''/'\'' unescaped.]'
        '--root-element[XML\: the root element of parameters that are not an object with one member.]:root-element:'
        '*--file[Multipart\: a file part, as name=@path\[;type=MEDIA-TYPE\]\[;filename=NAME\] (repeatable).]:name=@path:'
        '--boundary[Multipart\: the boundary, for reproducible output (random by default).]:boundary:'
        '--max-body-bytes[Most bytes of input read (default 100 MiB).]:max-body-bytes:'
        '--max-depth[Deepest nesting accepted (default 512).]:max-depth:'
        '--max-string-bytes[Longest string accepted, in bytes (default 32 MiB).]:max-string-bytes:'
        '--max-pairs[Most form pairs or object members (default 10000).]:max-pairs:'
        '--max-parts[Most parts in a multipart body (default 1000).]:max-parts:'
        '--max-part-header-bytes[Most header bytes in one multipart part (default 16 KiB).]:max-part-header-bytes:'
        '--max-image-pixels[Most pixels in a decoded image (default 100000000).]:max-image-pixels:'
        '--max-entity-expansions[Most XML entity references expanded (default 10000).]:max-entity-expansions:'
        ':file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_satchel_request() {
    local -i ret=1
    local -ar _method=('GET' 'POST' 'PUT' 'PATCH' 'DELETE' 'HEAD' 'OPTIONS')
    local -ar ___auth_type=('basic' 'digest' 'ntlm' 'any' 'bearer')
    local -ar ___durability=('synced' 'none')
    local -ar ___color=('auto' 'always' 'never')
    local -ar ___cert_type=('PEM' 'DER' 'P12')
    local -ar ___cache_policy=('protocol' 'reload' 'prefer-cache' 'only-cache' 'revalidate')
    local -ar arg_specs=(
        ':method:{__satchel_complete "${_method[@]}"}'
        ':url:'
        '*:items:'
        '--form[The request body format (default\: multipart with files, JSON with \:= items, else form).]'
        '--json[The request body format (default\: multipart with files, JSON with \:= items, else form).]'
        '--multipart[The request body format (default\: multipart with files, JSON with \:= items, else form).]'
        '--plist[The request body format (default\: multipart with files, JSON with \:= items, else form).]'
        '*--header[A header, as '\''Name\: value'\'' (repeatable).]:header:'
        '--auth[Credentials\: user\:password (the password is asked for on a terminal when left out), or a token with --auth-type bearer.]:user\:password:'
        '--auth-type[How --auth is presented\: basic (up front), digest, ntlm, any (after the challenge) or bearer.]:auth-type:{__satchel_complete "${___auth_type[@]}"}'
        '--session[Keep headers, cookies and auth between runs in this session\: a NAME (kept under $XDG_CONFIG_HOME/satchel/sessions/HOST_PORT/) or a FILE path (with a /); httpie'\''s format, mode 0600.]:name|file:_files'
        '--no-check-status[Print the response whatever its status.]'
        '--raw[Print the body as received, undecoded.]'
        '(--output -o)'{--output,-o}'[Save the body to this file.]:file:_files'
        '--stream[Print the records of a streaming response (events, JSON Lines, JSON text sequences, parts) as they arrive.]'
        '--sse[Follow an event stream as EventSource does\: reconnect with Last-Event-ID until the server answers 204.]'
        '--each[Print the elements at PATH of a large JSON or XML response as they arrive (a JSON Pointer to an array, or an XML element path).]:PATH:'
        '*--namespace[With --each\: a prefix of the XML path, as p=URI (repeatable).]:p=URI:'
        '(--download -d)'{--download,-d}'[Download a GET to --output (or the URL'\''s last segment), resuming a partial file.]'
        '--durability[With --download\: synced (the file and its rename flushed to the disk before the command ends) or none.]:synced|none:{__satchel_complete "${___durability[@]}"}'
        '(--verbose -v)'{--verbose,-v}'[Print the request and response heads.]'
        '--headers[Print only the response head.]'
        '(--quiet -q)'{--quiet,-q}'[No progress bar and no download summary.]'
        '--progress[Show the progress bar even when standard error is not a terminal.]'
        '--color[Colours\: auto (on a terminal), always or never.]:color:{__satchel_complete "${___color[@]}"}'
        '--timeout[Longest time for the whole request, in seconds (curl'\''s --max-time; none by default).]:seconds:'
        '--connect-timeout[Longest time to connect, TLS included, in seconds (default 60).]:seconds:'
        '--max-redirects[Most redirects followed (default 16).]:max-redirects:'
        '--no-follow[Do not follow redirects\: print the 3xx response.]'
        '--retries[Retries of an idempotent request after a connection failure, timeout or 408/5xx (default 0).]:retries:'
        '*--pin-sha256[Pin the server'\''s public key\: base64 SHA-256 of its SubjectPublicKeyInfo, bare or as sha256//BASE64 (repeatable).]:pin:'
        '--cacert[Trust the certificate authorities in this PEM file instead of the system'\''s.]:file:_files'
        '(-k --insecure)'{-k,--insecure}'[Accept any certificate and host name (pins still apply).]'
        '--cert[Present this client certificate to a TLS server that asks for one (PEM by default; with its key, or see --key).]:file:_files'
        '--key[The client certificate'\''s private key, when not in --cert'\''s file.]:file:_files'
        '--cert-type[How --cert is encoded\: PEM, DER or P12 (PKCS #12, with its key).]:cert-type:{__satchel_complete "${___cert_type[@]}"}'
        '--pass[The passphrase of --key (or of a P12 --cert).]:phrase:'
        '--cookie-jar[Read cookies from this file and keep the ones the response sets in it (the Netscape format curl reads; written atomically, mode 0600).]:file:_files'
        '--no-cookies[Neither send nor keep cookies.]'
        '--cache[Keep responses in this directory and answer from it as RFC 9111 allows (a private HTTP cache, made with mode 0700; off unless given).]:dir:_files -/'
        '--cache-policy[How the request uses --cache\: protocol (RFC 9111, the default), reload, prefer-cache, only-cache or revalidate.]:policy:{__satchel_complete "${___cache_policy[@]}"}'
        '--unix-socket[Connect through this unix domain socket instead of TCP; the URL still names the host and path (http\://localhost/v1.43/info).]:path:_files'
        '*--resolve[Resolve HOST\:PORT to ADDRESS (comma-separated for several), keeping the URL, Host and TLS name (repeatable).]:host\:port\:address:'
        '*--connect-to[Connect to TARGET_HOST\:TARGET_PORT for requests to HOST\:PORT, keeping the URL, Host and TLS name (repeatable).]:host\:port\:target_host\:target_port:'
        '--limit-rate[The most bytes per second up and down\: a number, with k, m or g for KiB, MiB, GiB (curl'\''s --limit-rate).]:rate:'
        '--http1.1[Speak HTTP/1.1 only.]'
        '--http2[HTTP/2 over TLS when the server offers it, else HTTP/1.1 (the default).]'
        '--http2-prior-knowledge[HTTP/2 from the first byte, also over plain http (h2c), for a server known to speak it.]'
        '--proxy[Go through this proxy\: http\://, https\://, socks4\://, socks4a\://, socks5\:// or socks5h\:// (the proxy resolves names); "" for none. Default\: the environment'\''s http_proxy, https_proxy, all_proxy, no_proxy, as curl reads them.]:url:'
        '--noproxy[Hosts that bypass --proxy, comma-separated\: example.com (and its subdomains), .internal, an address, or * for all.]:list:'
        '--proxy-user[The proxy'\''s credentials, user\:password (the password is asked for on a terminal when left out).]:user\:password:'
        '--proxy-cacert[Trust the CA certificates in this PEM file for an https\:// proxy.]:file:_files'
        '--max-body-bytes[Most bytes of input read (default 100 MiB).]:max-body-bytes:'
        '--max-depth[Deepest nesting accepted (default 512).]:max-depth:'
        '--max-string-bytes[Longest string accepted, in bytes (default 32 MiB).]:max-string-bytes:'
        '--max-pairs[Most form pairs or object members (default 10000).]:max-pairs:'
        '--max-parts[Most parts in a multipart body (default 1000).]:max-parts:'
        '--max-part-header-bytes[Most header bytes in one multipart part (default 16 KiB).]:max-part-header-bytes:'
        '--max-image-pixels[Most pixels in a decoded image (default 100000000).]:max-image-pixels:'
        '--max-entity-expansions[Most XML entity references expanded (default 10000).]:max-entity-expansions:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_satchel_serve() {
    local -i ret=1
    local -ar arg_specs=(
        '--port[The port to listen on; 0 picks a free one.]:port:'
        '--host[The address to listen on.]:host:'
        '--tls[Serve HTTPS with a throwaway certificate authority and leaf made at start.]'
        '--unix[Listen on this unix domain socket instead of a port (reach it as http\://localhost/ with --unix-socket).]:path:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_satchel_demo() {
    local -i ret=1
    local -ar arg_specs=(
        '--progress[Show progress bars even when standard error is not a terminal.]'
        '--upload-size[Bytes in the generated upload.]:bytes:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_satchel_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _satchel ]]; then
    _satchel "${@}"
else
    compdef _satchel satchel
fi
