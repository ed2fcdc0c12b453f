function __satchel_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __satchel_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __satchel_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __satchel_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __satchel_parse_tokens -S
    set -l unparsed_tokens (__satchel_tokens -pc)
    switch $unparsed_tokens[1]
    case 'satchel'
        __satchel_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'decode'
            __satchel_parse_subcommand 1 'c/content-type=' 'pretty' 'big-integers=' 'remove-nulls' 'no-top-level-scalars' 'raw-parts' 'lenient' 'crlf-only' 'dump-pixels=' 'image-scale=' 'xml-events' 'xpath=' 'namespace=+' 'each=' 'max-body-bytes=' 'max-depth=' 'max-string-bytes=' 'max-pairs=' 'max-parts=' 'max-part-header-bytes=' 'max-image-pixels=' 'max-entity-expansions=' 'version' 'h/help'
        case 'encode'
            __satchel_parse_subcommand 1 'as=' 'method=' 'include-headers' 'pretty' 'sorted-keys' 'without-escaping-slashes' 'root-element=' 'file=+' 'boundary=' 'max-body-bytes=' 'max-depth=' 'max-string-bytes=' 'max-pairs=' 'max-parts=' 'max-part-header-bytes=' 'max-image-pixels=' 'max-entity-expansions=' 'version' 'h/help'
        case 'request'
            __satchel_parse_subcommand -r 3 'form' 'json' 'multipart' 'plist' 'header=+' 'auth=' 'auth-type=' 'session=' 'no-check-status' 'raw' 'o/output=' 'stream' 'sse' 'each=' 'namespace=+' 'd/download' 'durability=' 'v/verbose' 'headers' 'q/quiet' 'progress' 'color=' 'timeout=' 'connect-timeout=' 'max-redirects=' 'no-follow' 'retries=' 'pin-sha256=+' 'cacert=' 'k/insecure' 'cert=' 'key=' 'cert-type=' 'pass=' 'cookie-jar=' 'no-cookies' 'cache=' 'cache-policy=' 'unix-socket=' 'resolve=+' 'connect-to=+' 'limit-rate=' 'http1.1' 'http2' 'http2-prior-knowledge' 'proxy=' 'noproxy=' 'proxy-user=' 'proxy-cacert=' 'max-body-bytes=' 'max-depth=' 'max-string-bytes=' 'max-pairs=' 'max-parts=' 'max-part-header-bytes=' 'max-image-pixels=' 'max-entity-expansions=' 'version' 'h/help'
        case 'serve'
            __satchel_parse_subcommand 0 'port=' 'host=' 'tls' 'unix=' 'version' 'h/help'
        case 'demo'
            __satchel_parse_subcommand 0 'progress' 'upload-size=' 'version' 'h/help'
        case 'help'
            __satchel_parse_subcommand -r 1 'version'
        end
    end
end

function __satchel_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __satchel_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __satchel_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __satchel_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__satchel_tokens -p)
    if test -z "$(__satchel_tokens -t)"
        set -l index (count (__satchel_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'satchel' -f
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel" version' -l 'version' -d 'Show the version.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_positional "satchel" -eq 1' -fa 'decode' -d 'Decode a payload as a response body and print the value as canonical JSON.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_positional "satchel" -eq 1' -fa 'encode' -d 'Read parameters as JSON and print the serialized body.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_positional "satchel" -eq 1' -fa 'request' -d 'Send an HTTP request and print the decoded response.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_positional "satchel" -eq 1' -fa 'serve' -d 'Serve fixture endpoints (echo, every format, batches, byte ranges) on loopback.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_positional "satchel" -eq 1' -fa 'demo' -d 'Tour Satchel against an embedded server: every serializer, uploads, batches, resumes, TLS pinning.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_positional "satchel" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" c content-type' -l 'content-type' -s 'c' -d 'The payload\'s media type.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" pretty' -l 'pretty' -d 'Indent the output.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" big-integers' -l 'big-integers' -d 'JSON integers beyond 64 bits: throw, double or string.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" remove-nulls' -l 'remove-nulls' -d 'Drop JSON members and elements that are null.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" no-top-level-scalars' -l 'no-top-level-scalars' -d 'Reject a JSON document that is a bare number, string, boolean or null.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" raw-parts' -l 'raw-parts' -d 'Multipart: leave part bodies undecoded (text as strings, anything else as $data).'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" lenient' -l 'lenient' -d 'Multipart: also accept a repeated Content-Disposition or Content-Type (the first wins), another disposition than form-data, a malformed filename*, a boundary outside RFC 2046 and a part that starts with the boundary.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" crlf-only' -l 'crlf-only' -d 'Multipart: accept CRLF line endings only (a bare LF is an error); by default CRLF and LF both end a line.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" dump-pixels' -l 'dump-pixels' -d 'Images: write the decoded pixels as raw 8-bit RGBA rows to FILE.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" image-scale' -l 'image-scale' -d 'JPEG: decode at 1/N of the size (1, 2, 4 or 8) by DCT scaling.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" xml-events' -l 'xml-events' -d 'XML: decode with the event (SAX) parser, without building a tree.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" xpath' -l 'xpath' -d 'XML: print the nodes this XPath expression selects, as a JSON array.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode"' -l 'namespace' -d 'XML: a prefix for --xpath or --each, as p=URI (repeatable).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" each' -l 'each' -d 'Print the elements at PATH of one large JSON or XML document as they complete (a JSON Pointer to an array, or an XML element path).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" max-body-bytes' -l 'max-body-bytes' -d 'Most bytes of input read (default 100 MiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" max-depth' -l 'max-depth' -d 'Deepest nesting accepted (default 512).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" max-string-bytes' -l 'max-string-bytes' -d 'Longest string accepted, in bytes (default 32 MiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" max-pairs' -l 'max-pairs' -d 'Most form pairs or object members (default 10000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" max-parts' -l 'max-parts' -d 'Most parts in a multipart body (default 1000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" max-part-header-bytes' -l 'max-part-header-bytes' -d 'Most header bytes in one multipart part (default 16 KiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" max-image-pixels' -l 'max-image-pixels' -d 'Most pixels in a decoded image (default 100000000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" max-entity-expansions' -l 'max-entity-expansions' -d 'Most XML entity references expanded (default 10000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" version' -l 'version' -d 'Show the version.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel decode" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" as' -l 'as' -d 'The body format: form, json, multipart, xml, plist, plist-binary.' -rfka 'form json multipart xml plist plist-binary'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" method' -l 'method' -d 'The request method, which decides between query string and body.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" include-headers' -l 'include-headers' -d 'Print the request line and headers before the body.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" pretty' -l 'pretty' -d 'JSON: indent the output.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" sorted-keys' -l 'sorted-keys' -d 'JSON: write object members sorted by key.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" without-escaping-slashes' -l 'without-escaping-slashes' -d 'JSON: write \'/\' unescaped.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" root-element' -l 'root-element' -d 'XML: the root element of parameters that are not an object with one member.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode"' -l 'file' -d 'Multipart: a file part, as name=@path[;type=MEDIA-TYPE][;filename=NAME] (repeatable).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" boundary' -l 'boundary' -d 'Multipart: the boundary, for reproducible output (random by default).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" max-body-bytes' -l 'max-body-bytes' -d 'Most bytes of input read (default 100 MiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" max-depth' -l 'max-depth' -d 'Deepest nesting accepted (default 512).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" max-string-bytes' -l 'max-string-bytes' -d 'Longest string accepted, in bytes (default 32 MiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" max-pairs' -l 'max-pairs' -d 'Most form pairs or object members (default 10000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" max-parts' -l 'max-parts' -d 'Most parts in a multipart body (default 1000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" max-part-header-bytes' -l 'max-part-header-bytes' -d 'Most header bytes in one multipart part (default 16 KiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" max-image-pixels' -l 'max-image-pixels' -d 'Most pixels in a decoded image (default 100000000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" max-entity-expansions' -l 'max-entity-expansions' -d 'Most XML entity references expanded (default 10000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" version' -l 'version' -d 'Show the version.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel encode" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_positional "satchel request" -eq 1' -fka 'GET POST PUT PATCH DELETE HEAD OPTIONS'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" form' -l 'form' -d 'The request body format (default: multipart with files, JSON with := items, else form).'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" json' -l 'json' -d 'The request body format (default: multipart with files, JSON with := items, else form).'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" multipart' -l 'multipart' -d 'The request body format (default: multipart with files, JSON with := items, else form).'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" plist' -l 'plist' -d 'The request body format (default: multipart with files, JSON with := items, else form).'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request"' -l 'header' -d 'A header, as \'Name: value\' (repeatable).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" auth' -l 'auth' -d 'Credentials: user:password (the password is asked for on a terminal when left out), or a token with --auth-type bearer.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" auth-type' -l 'auth-type' -d 'How --auth is presented: basic (up front), digest, ntlm, any (after the challenge) or bearer.' -rfka 'basic digest ntlm any bearer'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" session' -l 'session' -d 'Keep headers, cookies and auth between runs in this session: a NAME (kept under $XDG_CONFIG_HOME/satchel/sessions/HOST_PORT/) or a FILE path (with a /); httpie\'s format, mode 0600.' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" no-check-status' -l 'no-check-status' -d 'Print the response whatever its status.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" raw' -l 'raw' -d 'Print the body as received, undecoded.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" o output' -l 'output' -s 'o' -d 'Save the body to this file.' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" stream' -l 'stream' -d 'Print the records of a streaming response (events, JSON Lines, JSON text sequences, parts) as they arrive.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" sse' -l 'sse' -d 'Follow an event stream as EventSource does: reconnect with Last-Event-ID until the server answers 204.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" each' -l 'each' -d 'Print the elements at PATH of a large JSON or XML response as they arrive (a JSON Pointer to an array, or an XML element path).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request"' -l 'namespace' -d 'With --each: a prefix of the XML path, as p=URI (repeatable).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" d download' -l 'download' -s 'd' -d 'Download a GET to --output (or the URL\'s last segment), resuming a partial file.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" durability' -l 'durability' -d 'With --download: synced (the file and its rename flushed to the disk before the command ends) or none.' -rfka 'synced none'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" v verbose' -l 'verbose' -s 'v' -d 'Print the request and response heads.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" headers' -l 'headers' -d 'Print only the response head.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" q quiet' -l 'quiet' -s 'q' -d 'No progress bar and no download summary.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" progress' -l 'progress' -d 'Show the progress bar even when standard error is not a terminal.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" color' -l 'color' -d 'Colours: auto (on a terminal), always or never.' -rfka 'auto always never'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" timeout' -l 'timeout' -d 'Longest time for the whole request, in seconds (curl\'s --max-time; none by default).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" connect-timeout' -l 'connect-timeout' -d 'Longest time to connect, TLS included, in seconds (default 60).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-redirects' -l 'max-redirects' -d 'Most redirects followed (default 16).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" no-follow' -l 'no-follow' -d 'Do not follow redirects: print the 3xx response.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" retries' -l 'retries' -d 'Retries of an idempotent request after a connection failure, timeout or 408/5xx (default 0).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request"' -l 'pin-sha256' -d 'Pin the server\'s public key: base64 SHA-256 of its SubjectPublicKeyInfo, bare or as sha256//BASE64 (repeatable).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" cacert' -l 'cacert' -d 'Trust the certificate authorities in this PEM file instead of the system\'s.' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" insecure k' -s 'k' -l 'insecure' -d 'Accept any certificate and host name (pins still apply).'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" cert' -l 'cert' -d 'Present this client certificate to a TLS server that asks for one (PEM by default; with its key, or see --key).' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" key' -l 'key' -d 'The client certificate\'s private key, when not in --cert\'s file.' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" cert-type' -l 'cert-type' -d 'How --cert is encoded: PEM, DER or P12 (PKCS #12, with its key).' -rfka 'PEM DER P12'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" pass' -l 'pass' -d 'The passphrase of --key (or of a P12 --cert).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" cookie-jar' -l 'cookie-jar' -d 'Read cookies from this file and keep the ones the response sets in it (the Netscape format curl reads; written atomically, mode 0600).' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" no-cookies' -l 'no-cookies' -d 'Neither send nor keep cookies.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" cache' -l 'cache' -d 'Keep responses in this directory and answer from it as RFC 9111 allows (a private HTTP cache, made with mode 0700; off unless given).' -rfa '(__satchel_complete_directories)'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" cache-policy' -l 'cache-policy' -d 'How the request uses --cache: protocol (RFC 9111, the default), reload, prefer-cache, only-cache or revalidate.' -rfka 'protocol reload prefer-cache only-cache revalidate'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" unix-socket' -l 'unix-socket' -d 'Connect through this unix domain socket instead of TCP; the URL still names the host and path (http://localhost/v1.43/info).' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request"' -l 'resolve' -d 'Resolve HOST:PORT to ADDRESS (comma-separated for several), keeping the URL, Host and TLS name (repeatable).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request"' -l 'connect-to' -d 'Connect to TARGET_HOST:TARGET_PORT for requests to HOST:PORT, keeping the URL, Host and TLS name (repeatable).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" limit-rate' -l 'limit-rate' -d 'The most bytes per second up and down: a number, with k, m or g for KiB, MiB, GiB (curl\'s --limit-rate).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" http1.1' -l 'http1.1' -d 'Speak HTTP/1.1 only.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" http2' -l 'http2' -d 'HTTP/2 over TLS when the server offers it, else HTTP/1.1 (the default).'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" http2-prior-knowledge' -l 'http2-prior-knowledge' -d 'HTTP/2 from the first byte, also over plain http (h2c), for a server known to speak it.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" proxy' -l 'proxy' -d 'Go through this proxy: http://, https://, socks4://, socks4a://, socks5:// or socks5h:// (the proxy resolves names); "" for none. Default: the environment\'s http_proxy, https_proxy, all_proxy, no_proxy, as curl reads them.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" noproxy' -l 'noproxy' -d 'Hosts that bypass --proxy, comma-separated: example.com (and its subdomains), .internal, an address, or * for all.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" proxy-user' -l 'proxy-user' -d 'The proxy\'s credentials, user:password (the password is asked for on a terminal when left out).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" proxy-cacert' -l 'proxy-cacert' -d 'Trust the CA certificates in this PEM file for an https:// proxy.' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-body-bytes' -l 'max-body-bytes' -d 'Most bytes of input read (default 100 MiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-depth' -l 'max-depth' -d 'Deepest nesting accepted (default 512).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-string-bytes' -l 'max-string-bytes' -d 'Longest string accepted, in bytes (default 32 MiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-pairs' -l 'max-pairs' -d 'Most form pairs or object members (default 10000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-parts' -l 'max-parts' -d 'Most parts in a multipart body (default 1000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-part-header-bytes' -l 'max-part-header-bytes' -d 'Most header bytes in one multipart part (default 16 KiB).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-image-pixels' -l 'max-image-pixels' -d 'Most pixels in a decoded image (default 100000000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" max-entity-expansions' -l 'max-entity-expansions' -d 'Most XML entity references expanded (default 10000).' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" version' -l 'version' -d 'Show the version.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel request" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel serve" port' -l 'port' -d 'The port to listen on; 0 picks a free one.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel serve" host' -l 'host' -d 'The address to listen on.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel serve" tls' -l 'tls' -d 'Serve HTTPS with a throwaway certificate authority and leaf made at start.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel serve" unix' -l 'unix' -d 'Listen on this unix domain socket instead of a port (reach it as http://localhost/ with --unix-socket).' -rF
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel serve" version' -l 'version' -d 'Show the version.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel demo" progress' -l 'progress' -d 'Show progress bars even when standard error is not a terminal.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel demo" upload-size' -l 'upload-size' -d 'Bytes in the generated upload.' -rfka ''
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel demo" version' -l 'version' -d 'Show the version.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'satchel' -n '__satchel_should_offer_completions_for_flags_or_options "satchel help" version' -l 'version' -d 'Show the version.'
