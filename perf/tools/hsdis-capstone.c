/*
 * A disassembler plugin for HotSpot's -XX:+PrintAssembly (and so for JMH's perfasm profiler) on x86-64, built on
 * the Capstone library. HotSpot looks for hsdis-amd64.so in $JAVA_HOME/lib, $JAVA_HOME/lib/server and on
 * LD_LIBRARY_PATH, and calls decode_instructions_virtual() for each block of code it prints. Build and use it with
 * build-hsdis.sh; see perf/README.md ("Disassembly").
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <capstone/capstone.h>

typedef void* (*event_callback_t)(void* stream, const char* event, void* arg);
typedef int (*printf_callback_t)(void* stream, const char* format, ...);

/* HotSpot passes no callbacks for -XX:PrintAssemblyOptions=hsdis-print-raw: print to stdout, ignore the events. */
static void* no_event(void* stream, const char* event, void* arg)
{
    (void)stream;
    (void)event;
    (void)arg;
    return NULL;
}

static int print_to_file(void* stream, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    const int written = vfprintf(NULL == stream ? stdout : (FILE*)stream, format, args);
    va_end(args);
    return written;
}

void* decode_instructions_virtual(
    uintptr_t start_va, uintptr_t end_va, unsigned char* buffer, uintptr_t length,
    event_callback_t event_callback, void* event_stream,
    printf_callback_t printf_callback, void* printf_stream,
    const char* options, int newline)
{
    if (NULL == event_callback)
    {
        event_callback = no_event;
    }
    if (NULL == printf_callback)
    {
        printf_callback = print_to_file;
    }
    csh handle;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
    {
        return (void*)start_va;
    }
    /* Intel syntax unless the options ask for AT&T ("att", as binutils' hsdis reads them). */
    const int att = NULL != options && NULL != strstr(options, "att");
    cs_option(handle, CS_OPT_SYNTAX, att ? CS_OPT_SYNTAX_ATT : CS_OPT_SYNTAX_INTEL);
    event_callback(event_stream, "mach", (void*)"x86-64");

    cs_insn* insn = cs_malloc(handle);
    if (NULL == insn)
    {
        cs_close(&handle);
        return (void*)start_va;
    }
    const uint8_t* code = buffer;
    size_t size = length;
    uint64_t address = start_va;
    while (size > 0 && (0 == end_va || address < end_va))
    {
        const uint64_t at = address;
        event_callback(event_stream, "insn", (void*)(uintptr_t)at);
        if (cs_disasm_iter(handle, &code, &size, &address, insn))
        {
            printf_callback(printf_stream, "%s %s", insn->mnemonic, insn->op_str);
        }
        else
        {
            /* Not an instruction Capstone knows (data, padding): one byte, and go on. */
            printf_callback(printf_stream, ".byte 0x%02x", *code);
            code++;
            size--;
            address = at + 1;
        }
        event_callback(event_stream, "/insn", (void*)(uintptr_t)address);
        if (newline)
        {
            printf_callback(printf_stream, "\n");
        }
    }
    cs_free(insn, 1);
    cs_close(&handle);
    return (void*)(uintptr_t)address;
}
