#include "option_rows.h"

#include "rigscope/run/bake_job.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/info_job.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/lint_job.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/regions_job.h"
#include "rigscope/run/report_page.h"
#include "rigscope/run/rivet_job.h"
#include "rigscope/run/rom_job.h"
#include "rigscope/run/tension_job.h"
#include "rigscope/run/volume_job.h"

namespace rigscope_python {

namespace py = pybind11;

namespace {

py::object text_or_none(const char* s) { return s ? py::object(py::str(s)) : py::object(py::none()); }

template <typename Options>
py::tuple rows_of(const rigscope::OptionTable<Options>& table) {
    py::tuple t(table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        const auto& s = table[i];
        t[i] = py::make_tuple(s.name, text_or_none(s.python), text_or_none(s.no_python), rigscope::option_default_text(s), s.cli);
    }
    return t;
}

}  // namespace

py::dict option_tables() {
    using namespace rigscope;
    py::dict d;
    d["input"] = rows_of(input_options());
    d["rom_input"] = rows_of(rom_input_options());
    d["tension_reference"] = rows_of(tension_reference_options());
    d["tension_maps"] = rows_of(tension_map_options());
    d["deform"] = rows_of(deform_options());
    d["volume"] = rows_of(volume_options());
    d["intersect"] = rows_of(intersect_options());
    d["drive"] = rows_of(drive_options());
    d["rivet"] = rows_of(rivet_options());
    d["info"] = rows_of(info_options());
    d["diff"] = rows_of(diff_options());
    d["check"] = rows_of(check_options());
    d["report"] = rows_of(report_page_options());
    d["tension"] = rows_of(tension_job_options());
    d["regions"] = rows_of(regions_options());
    d["bake"] = rows_of(bake_options());
    d["lint"] = rows_of(lint_options());
    d["rom"] = rows_of(rom_options());
    return d;
}

}  // namespace rigscope_python
