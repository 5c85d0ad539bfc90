// The one JUnit XML writer for rigscope's CI verdicts (`check` and `diff`, one run or merged
// chunks): a report that validates against the Jenkins xunit and the Apache Ant schemas
// (tests/schemas), and the run's timing a chunk record carries so that `merge` can report it.
#pragma once

#include <string>
#include <utility>
#include <vector>


namespace rigscope {

// When and where the run ran, for the report's timestamp, time and hostname (the schemas CI
// servers validate against require them). Measured by the caller so that the report itself
// stays a pure function of its inputs.
struct CheckRunInfo {
    std::string timestamp;  // UTC start, YYYY-MM-DDThh:mm:ss (the Ant schema allows no zone)
    double seconds = 0;     // wall time of the run (for a merge: the sum of the chunks')
    std::string hostname = "localhost";
};

// Now, and this machine's name; seconds 0 (the caller measures them).
CheckRunInfo start_run_info();

struct JUnitCase {
    std::string classname, name;
    bool failed = false;
    bool skipped = false;             // not judged (a clip --clip left out): <skipped message=...>
    std::string type, message, text;  // the failure's type, message and text lines
};

// One test suite. The schemas want time on every test case: a run evaluates its frames once for
// all of them, so the run's time is the suite's and each case's is 0.
struct JUnitSuite {
    std::string name;     // without the package (aggregated Ant documents want it so)
    std::string package;  // e.g. rigscope.check
    std::vector<std::pair<std::string, std::string>> properties;
    std::vector<JUnitCase> cases;
    std::string system_out;
};

std::string junit_xml(const JUnitSuite& suite, const CheckRunInfo& run);

// A suite of a batch report (several inputs, one document): either a report junit_xml wrote for
// one file, its suite renamed `name`, or, for a file that could not be judged, a suite of one
// test case holding an <error> with the file's one-line message.
struct JUnitBatchSuite {
    std::string name;      // unique in the batch: the file's path relative to the batch root
    std::string document;  // junit_xml's document for the file; empty: an error suite
    // An error suite's package, class name, input property, error type and message, and timing.
    std::string package, classname, input, error_type, error_message;
    CheckRunInfo run;
};

// One <testsuites> document with the suites in order, numbered by id from 0. Throws
// internal_error for a document junit_xml did not write.
std::string junit_batch_xml(const std::vector<JUnitBatchSuite>& suites);

// XML 1.0 (and HTML) text or attribute value appended to `out`: markup escaped, characters XML
// cannot carry (control characters, invalid UTF-8) as '?'; in attributes, line breaks and tabs
// as character references. The JUnit reports and a batch's index.html write text through it.
void xml_escape(std::string& out, const std::string& s, bool attribute);

// A class name part: dots, white space and control characters become '_', since CI servers
// split class names on dots.
std::string junit_class_part(std::string s);

// A file's stem as a class name part ("input" when it has none).
std::string junit_stem(const std::string& file);

// Class names CI servers can trace (issue 57). Jenkins splits a class name at its last dot into
// package and class and keys each by its "safe" form (/ \ : ? # % < > made '_'), then a case by
// its name within the class; GitLab keys a case on its suite name, class name and name. So each
// part is written by an injective code that leaves no dot and none of those characters: letters,
// digits, '_', '-' and non-ASCII UTF-8 stay; every other byte is ~HH (two upper-case hex digits),
// an empty part is "~". Distinct names give distinct parts, and no part changes under Jenkins'
// safe(): distinct (file, clip, mesh) give distinct keys on both servers.
std::string junit_key_part(const std::string& name);
// A relative path as class name parts: each folder and the file name a part, joined by dots
// (folders read as packages); an absolute or empty path by its file name alone.
std::string junit_path_key(const std::string& relpath);
// `rigscope.<verb>.<path parts>.<clip>.<mesh>`: path is relpath, or for a single run ("") the
// file's name; a mesh without a name is "~m<index>".
std::string junit_case_class(const std::string& verb, const std::string& file, const std::string& relpath, const std::string& clip,
                             const std::string& mesh, std::size_t mesh_index);

// Seconds as the reports write them (3 decimals, never negative).
std::string junit_seconds(double s);
// YYYY-MM-DDThh:mm:ss, the form the Ant schema accepts.
bool is_junit_timestamp(const std::string& t);

}  // namespace rigscope
