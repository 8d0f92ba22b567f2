#include "services/mail_queue.hpp"

#include "jobs/job_queue.hpp"
#include "mail/smtp.hpp"
#include "util/json.hpp"

namespace cabinet {

void enqueue_mail(pqxx::transaction_base& txn, const std::string& to, const MailContent& m) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    write_key(w, "to");
    write_string(w, to);
    write_key(w, "subject");
    write_string(w, m.subject);
    write_key(w, "text");
    write_string(w, m.text);
    write_key(w, "html");
    write_string(w, m.html);
    w.EndObject();
    jobs::enqueue(txn, kSendMailJob, std::string_view(buf.GetString(), buf.GetSize()));
}

}  // namespace cabinet
