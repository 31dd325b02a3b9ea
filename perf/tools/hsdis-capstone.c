/*
 * A disassembler plugin for HotSpot's -XX:+PrintAssembly (and so for JMH's perfasm profiler) on x86-64, built on
 * the Capstone library. HotSpot looks for hsdis-amd64.so in $JAVA_HOME/lib, $JAVA_HOME/lib/server and on
 * LD_LIBRARY_PATH, and calls decode_instructions_virtual() for each block of code it prints. Build and use it with
 * build-hsdis.sh; see perf/README.md ("Disassembly").
 */
#include <stddef.h>
#include <stdint.h>
#include <capstone/capstone.h>

typedef void* (*event_callback_t)(void* stream, const char* event, void* arg);
typedef int (*printf_callback_t)(void* stream, const char* format, ...);

void* decode_instructions_virtual(
    uintptr_t start_va, uintptr_t end_va, unsigned char* buffer, uintptr_t length,
    event_callback_t event_callback, void* event_stream,
    printf_callback_t printf_callback, void* printf_stream,
    const char* options, int newline)
{
    (void)options;
    csh handle;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
    {
        return (void*)start_va;
    }
    cs_option(handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_INTEL);
    event_callback(event_stream, "mach", (void*)"x86-64");

    cs_insn* insn = cs_malloc(handle);
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
