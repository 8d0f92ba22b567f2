#pragma once
// Mails leave through the durable `send_mail` job (jobs/job_queue.hpp), written in the
// caller's transaction: a mail is sent only if what it announces was committed.
#include <pqxx/pqxx>

#include <string>

#include "mail/templates.hpp"

namespace cabinet {

void enqueue_mail(pqxx::transaction_base& txn, const std::string& to, const MailContent& m);

}  // namespace cabinet
