# صفحة طالب واحد (تُفتح من اسم في الشبكة المباشرة): خطواته وسجلّ طلبات المساعدة والتسلسل الزمني.

student-back = العودة إلى الصف
student-in-parens = ({ $text })
student-no-pathway = لم يُسنَد أي مسار بعد.

## مسار واحد: عنوان باسمه ثم شريط بخطواته.

student-progress-last-event = { $total ->
    [zero] أُنجزت { $done } من أصل { $total } خطوة · آخر نشاط قبل { $ago }
    [one] أُنجزت { $done } من أصل خطوة واحدة · آخر نشاط قبل { $ago }
    [two] أُنجزت { $done } من أصل خطوتين · آخر نشاط قبل { $ago }
    [few] أُنجزت { $done } من أصل { $total } خطوات · آخر نشاط قبل { $ago }
    [many] أُنجزت { $done } من أصل { $total } خطوة · آخر نشاط قبل { $ago }
   *[other] أُنجزت { $done } من أصل { $total } خطوة · آخر نشاط قبل { $ago }
}
student-progress-not-started = { $total ->
    [zero] أُنجزت { $done } من أصل { $total } خطوة · لم يبدأ
    [one] أُنجزت { $done } من أصل خطوة واحدة · لم يبدأ
    [two] أُنجزت { $done } من أصل خطوتين · لم يبدأ
    [few] أُنجزت { $done } من أصل { $total } خطوات · لم يبدأ
    [many] أُنجزت { $done } من أصل { $total } خطوة · لم يبدأ
   *[other] أُنجزت { $done } من أصل { $total } خطوة · لم يبدأ
}
student-idle = خامل

student-outcome-first-try = صحيح من المحاولة الأولى
student-outcome-after-retries = صحيح بعد إعادة المحاولة
student-outcome-incorrect = خطأ
student-outcome-no-verdict = مكتملة، دون حكم
student-outcome-not-reached = لم يصل إليها
student-status-done = منجزة
student-status-current = يعمل عليها
student-status-upcoming = قادمة

student-step-numbered = { $n }. { $title }
student-step-title = { $n }. { $title }: { $words }
student-struggled = { $count ->
    [zero] ، تعثّر { $count } مرة
    [one] ، تعثّر مرة واحدة
    [two] ، تعثّر مرتين
    [few] ، تعثّر { $count } مرات
    [many] ، تعثّر { $count } مرة
   *[other] ، تعثّر { $count } مرة
}

## خطوة مفتوحة من الشريط: محاولاتها من الأحدث إلى الأقدم.

student-evidence-label = { $title }: الأدلة
student-no-completion = لم تُكمَل بعد.
student-took = استغرق { $span }
student-took-since = (منذ إنهاء الخطوة السابقة)
student-score = الدرجة { $score }
student-details-caption = التفاصيل التي أبلغ عنها العنصر التفاعلي

## سجلّ المساعدة: كل طلب مساعدة أرسله الطالب.

student-help-history = سجلّ طلبات المساعدة
student-no-help = لا توجد طلبات مساعدة.
student-help-asked = { $at }، { $step }: { $question }
student-help-waiting = بالانتظار
student-help-waiting-mine = بالانتظار (توليتَه أنت)
student-help-answered = أُجيب
student-help-answered-visit = أُجيب: سآتي إليه
student-help-declined = رُفض
student-help-answer = — الإجابة: { $answer }
student-help-visit-done = — وُعد بزيارة في { $time }، تمّت
student-help-visit-not-done = — وُعد بزيارة في { $time }، لم تتمّ بعد
student-after-help-right-first-try = ثم صحيح من المحاولة الأولى
student-after-help-right-after-retries = ثم صحيح بعد إعادة المحاولة
student-after-help-wrong = ثم خطأ
student-after-help-no-verdict = ثم أنهى (دون حكم)
student-after-help-not-yet = لم يصل إليها منذ ذلك الحين

## التسلسل الزمني: نشاط الطالب من الأقدم إلى الأحدث.

student-timeline = التسلسل الزمني
student-timeline-empty = لا شيء بعد.
student-event = { $title }: { $what }
