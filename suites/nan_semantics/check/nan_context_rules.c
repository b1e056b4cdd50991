/* nan_context_rules.c — see nan_context_rules.h. */
#include "nan_context_rules.h"

#include <string.h>

#include "nan_cases.h"

static const nan_context_rule rules[] = {
    {"pthread", "thread", NAN_MXCSR_DEFAULT, "mxcsr-inheritance", "ymm_thread_private"},
    {"pooled_thread", "first_job", NAN_MXCSR_DEFAULT, "mxcsr-inheritance", "ymm_thread_private"},
    {"pooled_thread", "reused", NAN_MXCSR_WRITTEN, "mxcsr-inheritance", ""},
    {"signal_raise", "handler", NAN_MXCSR_DEFAULT, "handler-mxcsr",
     "handler_ran,handler_stack_aligned,ymm_handler_init,ymm_sigreturn_restored"},
    {"signal_pthread_kill", "handler", NAN_MXCSR_DEFAULT, "handler-mxcsr", "handler_ran,handler_stack_aligned"},
    {"after_handler", "after_handler", NAN_MXCSR_WRITTEN, "mxcsr-inheritance",
     "handler_ran,handler_stack_aligned,ymm_sigreturn_restored"},
    {"sigaltstack", "handler", NAN_MXCSR_DEFAULT, "handler-mxcsr",
     "handler_ran,handler_stack_aligned,on_altstack,ymm_handler_init,ymm_sigreturn_restored"},
    {"siglongjmp", "after_siglongjmp", NAN_MXCSR_DEFAULT, "mxcsr-inheritance", "jumped,handler_stack_aligned"},
    {"mxcsr_write", "written", NAN_MXCSR_WRITTEN, "mxcsr-readback", ""},
    {"mxcsr_write", "restored", NAN_MXCSR_DEFAULT, "mxcsr-readback", ""},
    {"mxcsr_write_pthread", "thread", NAN_MXCSR_WRITTEN, "mxcsr-inheritance", ""},
    {"fork", "child", NAN_MXCSR_WRITTEN, "mxcsr-inheritance", "ymm_fork_inherited"},
    {"exec", "exec_child", NAN_MXCSR_DEFAULT, "mxcsr-inheritance", ""},
    {"initial", "initial", NAN_MXCSR_DEFAULT, "mxcsr-initial", "x87_cw_default"},
    {"vzeroupper", NULL, NAN_MXCSR_DEFAULT, "mxcsr-readback",
     "ymm_vzeroupper_zero,ymm_vzeroupper_ops,ymm_vzeroall_zero,ymm_vzeroupper_signal"},
    {"dispatch_worker", "worker", NAN_MXCSR_DEFAULT, "mxcsr-inheritance", "on_dispatch_worker,ymm_thread_private"},
};

int nan_context_rules(const char *context, const nan_context_rule **out)
{
    int n = 0;
    *out = NULL;
    for (unsigned i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (strcmp(rules[i].context, context) != 0)
            continue;
        if (!*out)
            *out = &rules[i];
        n++;
    }
    return n;
}

const char *const nan_contexts[] = {
#define NAN_CONTEXT(name, run) #name,
#include "nan_contexts.def"
#undef NAN_CONTEXT
    NULL,
};

int nan_context_known(const char *context)
{
    for (int i = 0; nan_contexts[i]; i++)
        if (strcmp(context, nan_contexts[i]) == 0)
            return 1;
    return 0;
}
