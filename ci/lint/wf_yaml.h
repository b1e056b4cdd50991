/* wf_yaml.h — reading a workflow or action file with libyaml, shared by
 * bg-workflow-lint (the rules) and bg-workflow-run (the emulation): one
 * loader and the two node lookups both use. */
#ifndef WF_YAML_H
#define WF_YAML_H

#include <stddef.h>
#include <yaml.h>

/* Reads path and parses it into *doc; *src (len bytes) keeps the text (the
 * caller frees both: yaml_document_delete, free).  tool names the caller in
 * the one error line.  Returns 0, BG_EXIT_IO or BG_EXIT_PARSE. */
int wf_load(const char *path, const char *tool, yaml_document_t *doc, char **src, size_t *len);

/* The value node of key in mapping map, or NULL (map NULL or not a mapping). */
yaml_node_t *wf_get(yaml_document_t *doc, const yaml_node_t *map, const char *key);

/* The text of a scalar node, or NULL. */
const char *wf_scalar(const yaml_node_t *n);

#endif
