# مكتب المساعدة: طلبات المساعدة من الطلاب، وإجابات المعلّم، والردود المحفوظة.

desk-title = مكتب المساعدة
desk-waiting-count = { $count ->
    [zero] لا طلبات في الانتظار
    [one] طلب واحد في الانتظار
    [two] طلبان في الانتظار
    [few] { $count } طلبات في الانتظار
    [many] { $count } طلبًا في الانتظار
   *[other] { $count } طلب في الانتظار
}
desk-mute-label = صوت وإشعار عند وصول طلبات جديدة
desk-loading = جارٍ التحميل…
desk-empty = لا أحد ينتظر المساعدة.

## كم انتظر الطلب أو كم بقي له.

desk-span-minutes-seconds = { $m } د { $s } ث

## ما بقي على المعلّم أن يفعله.

desk-follow-up-title = طلبات فائتة — تحتاج إلى متابعة
desk-follow-up-what = سأل قبل { $ago }؛ ولم يُجب أحد في الوقت المحدد
desk-visits-title = الزيارات
desk-visit-what = قلتَ إنك ستأتي إليه، قبل { $ago }
desk-done = تم

## الطلبات المنتظِرة، مجمّعة حسب الخطوة.

desk-group-label = طلبات حول { $step }
desk-group-students = { $count ->
    [zero] لا طلاب
    [one] طالب واحد
    [two] طالبان
    [few] { $count } طلاب
    [many] { $count } طالبًا
   *[other] { $count } طالب
}
desk-learner-groups-title = حسب مجموعاتك
desk-learner-group-waiting = { $group } · { $count } في الانتظار

## حالة الطلب.

desk-state-open = في الانتظار
desk-state-claimed-by-me = استلمتَه أنت
desk-state-claimed-by-other = استلمه معلّم آخر
desk-state-answered = تمت الإجابة
desk-state-declined = مرفوض
desk-state-expired = انتهت مهلته
desk-state-failed = مغلق

## بطاقة طلب منتظِر.

desk-waiting-for = ينتظر منذ { $span }
desk-time-left = يتبقى { $span }
desk-question-hidden = السؤال مخفي في وضع العرض الآمن.
desk-attempts = { $count ->
    [zero] لا محاولات
    [one] محاولة واحدة
    [two] محاولتان
    [few] { $count } محاولات
    [many] { $count } محاولة
   *[other] { $count } محاولة
}
desk-hints = { $count ->
    [zero] لا تلميحات
    [one] تلميح واحد
    [two] تلميحان
    [few] { $count } تلميحات
    [many] { $count } تلميحًا
   *[other] { $count } تلميح
}
desk-open-answer = أجب
desk-hide-answer = إخفاء الإجابة
desk-claim = استلام
desk-coming-over = سآتي إليك
desk-decline = رفض
desk-answer-hidden = كتابة الإجابة مخفية في وضع العرض الآمن.
desk-answer-label = الإجابة
desk-insert-reply = إدراج ردّ محفوظ
desk-insert-reply-group = إدراج ردّ محفوظ للمجموعة
desk-saved-reply-choose = ردّ محفوظ…
desk-send-answer = إرسال الإجابة
desk-draft-kept = المسودة محفوظة: { $draft }
desk-answer-sent = الإجابة: { $answer }
desk-closed-title = أُغلقت مؤخرًا

## إجابة واحدة لعدة طلاب.

desk-group-answer = إجابة واحدة للجميع ({ $count })
desk-group-send = إرسال إلى الجميع ({ $count })
desk-group-hide = إخفاء
desk-group-sent = { $count ->
    [zero] لم تُرسل إلى أي طالب.
    [one] أُرسلت إلى طالب واحد.
    [two] أُرسلت إلى طالبَين.
    [few] أُرسلت إلى { $count } طلاب.
    [many] أُرسلت إلى { $count } طالبًا.
   *[other] أُرسلت إلى { $count } طالب.
}
desk-group-sent-partial = أُرسلت إلى { $sent } من { $total }؛ { $errors }

## لماذا لم تُرسل إجابة أو استلام أو رفض.

desk-error-expired = انقضت مهلة هذا الطلب؛ لم يعد بالإمكان الإجابة عنه
desk-error-already-answered = هذا الطلب لديه إجابة بالفعل
desk-error-already-claimed = استلم معلّم آخر هذا الطلب

## الردود المحفوظة.

desk-replies-title = الردود المحفوظة
desk-replies-empty = لا توجد ردود محفوظة بعد.
desk-reply-edit = تعديل
desk-reply-delete = حذف
desk-reply-title-new = ردّ محفوظ جديد: العنوان
desk-reply-title = العنوان
desk-reply-body = النص
desk-reply-save = حفظ الردّ
desk-reply-save-changes = حفظ التغييرات
desk-reply-cancel = إلغاء

## عنوان النافذة.

desk-window-title = ({ $count }) { app-name }
