#!/bin/bash

__satchel_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__satchel_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__satchel_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__satchel_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_satchel() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __satchel_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    decode|encode|request|serve|demo|help)
        # Offer subcommand argument completions
        "_satchel_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'decode encode request serve demo help' -- "${cur}"))
        ;;
    esac
}

_satchel_decode() {
    repeating_flags=()
    non_repeating_flags=(--pretty --remove-nulls --no-top-level-scalars --raw-parts --lenient --crlf-only --xml-events --version -h --help)
    repeating_options=(--namespace)
    non_repeating_options=(--content-type -c --big-integers --dump-pixels --image-scale --xpath --each --max-body-bytes --max-depth --max-string-bytes --max-pairs --max-parts --max-part-header-bytes --max-image-pixels --max-entity-expansions)
    __satchel_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--content-type'|'-c')
        return
        ;;
    '--big-integers')
        return
        ;;
    '--dump-pixels')
        return
        ;;
    '--image-scale')
        return
        ;;
    '--xpath')
        return
        ;;
    '--namespace')
        return
        ;;
    '--each')
        return
        ;;
    '--max-body-bytes')
        return
        ;;
    '--max-depth')
        return
        ;;
    '--max-string-bytes')
        return
        ;;
    '--max-pairs')
        return
        ;;
    '--max-parts')
        return
        ;;
    '--max-part-header-bytes')
        return
        ;;
    '--max-image-pixels')
        return
        ;;
    '--max-entity-expansions')
        return
        ;;
    esac
}

_satchel_encode() {
    repeating_flags=()
    non_repeating_flags=(--include-headers --pretty --sorted-keys --without-escaping-slashes --version -h --help)
    repeating_options=(--file)
    non_repeating_options=(--as --method --root-element --boundary --max-body-bytes --max-depth --max-string-bytes --max-pairs --max-parts --max-part-header-bytes --max-image-pixels --max-entity-expansions)
    __satchel_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--as')
        __satchel_add_completions -W 'form'$'\n''json'$'\n''multipart'$'\n''xml'$'\n''plist'$'\n''plist-binary'
        return
        ;;
    '--method')
        return
        ;;
    '--root-element')
        return
        ;;
    '--file')
        return
        ;;
    '--boundary')
        return
        ;;
    '--max-body-bytes')
        return
        ;;
    '--max-depth')
        return
        ;;
    '--max-string-bytes')
        return
        ;;
    '--max-pairs')
        return
        ;;
    '--max-parts')
        return
        ;;
    '--max-part-header-bytes')
        return
        ;;
    '--max-image-pixels')
        return
        ;;
    '--max-entity-expansions')
        return
        ;;
    esac
}

_satchel_request() {
    repeating_flags=()
    non_repeating_flags=(--form --json --multipart --plist --no-check-status --raw --stream --sse --download -d --verbose -v --headers --quiet -q --progress --no-follow -k --insecure --no-cookies --http1.1 --http2 --http2-prior-knowledge --version -h --help)
    repeating_options=(--header --namespace --pin-sha256 --resolve --connect-to)
    non_repeating_options=(--auth --auth-type --session --output -o --each --durability --color --timeout --connect-timeout --max-redirects --retries --cacert --cert --key --cert-type --pass --cookie-jar --cache --cache-policy --unix-socket --limit-rate --proxy --noproxy --proxy-user --proxy-cacert --max-body-bytes --max-depth --max-string-bytes --max-pairs --max-parts --max-part-header-bytes --max-image-pixels --max-entity-expansions)
    __satchel_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--header')
        return
        ;;
    '--auth')
        return
        ;;
    '--auth-type')
        __satchel_add_completions -W 'basic'$'\n''digest'$'\n''ntlm'$'\n''any'$'\n''bearer'
        return
        ;;
    '--session')
        __satchel_add_completions -f
        return
        ;;
    '--output'|'-o')
        __satchel_add_completions -f
        return
        ;;
    '--each')
        return
        ;;
    '--namespace')
        return
        ;;
    '--durability')
        __satchel_add_completions -W 'synced'$'\n''none'
        return
        ;;
    '--color')
        __satchel_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--max-redirects')
        return
        ;;
    '--retries')
        return
        ;;
    '--pin-sha256')
        return
        ;;
    '--cacert')
        __satchel_add_completions -f
        return
        ;;
    '--cert')
        __satchel_add_completions -f
        return
        ;;
    '--key')
        __satchel_add_completions -f
        return
        ;;
    '--cert-type')
        __satchel_add_completions -W 'PEM'$'\n''DER'$'\n''P12'
        return
        ;;
    '--pass')
        return
        ;;
    '--cookie-jar')
        __satchel_add_completions -f
        return
        ;;
    '--cache')
        __satchel_add_completions -d
        return
        ;;
    '--cache-policy')
        __satchel_add_completions -W 'protocol'$'\n''reload'$'\n''prefer-cache'$'\n''only-cache'$'\n''revalidate'
        return
        ;;
    '--unix-socket')
        __satchel_add_completions -f
        return
        ;;
    '--resolve')
        return
        ;;
    '--connect-to')
        return
        ;;
    '--limit-rate')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--proxy-user')
        return
        ;;
    '--proxy-cacert')
        __satchel_add_completions -f
        return
        ;;
    '--max-body-bytes')
        return
        ;;
    '--max-depth')
        return
        ;;
    '--max-string-bytes')
        return
        ;;
    '--max-pairs')
        return
        ;;
    '--max-parts')
        return
        ;;
    '--max-part-header-bytes')
        return
        ;;
    '--max-image-pixels')
        return
        ;;
    '--max-entity-expansions')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __satchel_add_completions -W 'GET'$'\n''POST'$'\n''PUT'$'\n''PATCH'$'\n''DELETE'$'\n''HEAD'$'\n''OPTIONS'
        return
        ;;
    esac
}

_satchel_serve() {
    repeating_flags=()
    non_repeating_flags=(--tls --version -h --help)
    repeating_options=()
    non_repeating_options=(--port --host --unix)
    __satchel_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--port')
        return
        ;;
    '--host')
        return
        ;;
    '--unix')
        __satchel_add_completions -f
        return
        ;;
    esac
}

_satchel_demo() {
    repeating_flags=()
    non_repeating_flags=(--progress --version -h --help)
    repeating_options=()
    non_repeating_options=(--upload-size)
    __satchel_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--upload-size')
        return
        ;;
    esac
}

_satchel_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __satchel_offer_flags_options -1
}

complete -o filenames -F _satchel satchel
