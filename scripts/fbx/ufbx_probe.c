// ufbx oracle probe, built OUTSIDE rigscope against a checkout of ufbx (scripts/fbx/make_oracles_ufbx.py
// says how; no ufbx code is in this project): loads an FBX with ufbx, evaluates every frame of a take
// with skinning and blend shapes, and prints JSON: per mesh the control points' world positions
// in metres (file axes, no conversion) at rest and at each frame.
//   ufbx_probe FILE.fbx FIRST_FRAME LAST_FRAME [TAKE_INDEX]
#include <stdio.h>
#include <stdlib.h>
#include "ufbx.h"

static void dump_positions(const ufbx_scene *s, double unit) {
    int first_mesh = 1;
    printf("[");
    for (size_t i = 0; i < s->meshes.count; i++) {
        const ufbx_mesh *m = s->meshes.data[i];
        if (!m->instances.count) continue;
        const ufbx_node *node = m->instances.data[0];
        printf("%s{\"name\":\"%s\",\"positions\":[", first_mesh ? "" : ",", node->name.data);
        first_mesh = 0;
        for (size_t v = 0; v < m->num_vertices; v++) {
            ufbx_vec3 p = m->skinned_position.values.data[v];
            if (m->skinned_is_local) p = ufbx_transform_position(&node->geometry_to_world, p);
            printf("%s[%.9g,%.9g,%.9g]", v ? "," : "", p.x * unit, p.y * unit, p.z * unit);
        }
        printf("]}");
    }
    printf("]");
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: ufbx_probe FILE FIRST LAST [TAKE]\n"); return 2; }
    ufbx_load_opts opts = { 0 };
    ufbx_error err;
    ufbx_scene *scene = ufbx_load_file(argv[1], &opts, &err);
    if (!scene) { fprintf(stderr, "ufbx: %s\n", err.description.data); return 1; }
    const long f0 = atol(argv[2]), f1 = atol(argv[3]);
    const size_t take = argc > 4 ? (size_t)atol(argv[4]) : 0;
    const double fps = scene->settings.frames_per_second;
    const double unit = scene->settings.unit_meters;
    printf("{\"generator\":\"ufbx %u.%u.%u\",\"version\":%u,\"fps\":%.9g,\"unit_meters\":%.9g,\"takes\":%zu,\"rest\":",
           ufbx_version_major(UFBX_HEADER_VERSION), ufbx_version_minor(UFBX_HEADER_VERSION), ufbx_version_patch(UFBX_HEADER_VERSION),
           scene->metadata.version, fps, unit, scene->anim_stacks.count);
    dump_positions(scene, unit);
    printf(",\"frames\":[");
    if (take < scene->anim_stacks.count) {
        const ufbx_anim *anim = scene->anim_stacks.data[take]->anim;
        for (long f = f0; f <= f1; f++) {
            ufbx_evaluate_opts eo = { 0 };
            eo.evaluate_skinning = true;
            ufbx_scene *at = ufbx_evaluate_scene(scene, anim, (double)f / fps, &eo, &err);
            if (!at) { fprintf(stderr, "ufbx evaluate: %s\n", err.description.data); return 1; }
            printf("%s{\"frame\":%ld,\"meshes\":", f == f0 ? "" : ",", f);
            dump_positions(at, unit);
            printf("}");
            ufbx_free_scene(at);
        }
    }
    printf("]}\n");
    ufbx_free_scene(scene);
    return 0;
}
