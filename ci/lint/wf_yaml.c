/* wf_yaml.c — see wf_yaml.h. */
#include "wf_yaml.h"

#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_file.h"

int wf_load(const char *path, const char *tool, yaml_document_t *doc, char **src, size_t *len)
{
    bg_status st = bg_file_read(path, tool, src, len);
    if (st != BG_OK)
        return bg_exit_code(st);
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)*src, *len);
    int ok = yaml_parser_load(&parser, doc);
    if (!ok)
        bg_errorf(tool, "%s:%lu: not YAML: %s", path, (unsigned long)parser.problem_mark.line + 1,
                  parser.problem ? parser.problem : "parse error");
    yaml_parser_delete(&parser);
    if (!ok) {
        free(*src);
        *src = NULL;
        return BG_EXIT_PARSE;
    }
    return 0;
}

const char *wf_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

yaml_node_t *wf_get(yaml_document_t *doc, const yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = wf_scalar(yaml_document_get_node(doc, p->key));
        if (k && !strcmp(k, key))
            return yaml_document_get_node(doc, p->value);
    }
    return NULL;
}
