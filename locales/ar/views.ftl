# جمل يبنيها جانب Rust لعروض النافذة، والإجابتان الجاهزتان اللتان يرسلهما مكتب المساعدة إلى الطالب.

## أسماء مستعارة للمتعلّمين في وضع العرض الآمن.

view-learner-alias = متعلّم { $n }
view-learner = متعلّم

view-missed-group-name = لم يتقنوا { $standard }

## نتيجة خطوة مكتملة.

view-result-first-try = صحيح من المحاولة الأولى
view-result-correct-after = صحيح بعد { $attempts ->
        [zero] { $attempts } محاولة
        [one] محاولة واحدة
        [two] محاولتين
        [few] { $attempts } محاولات
        [many] { $attempts } محاولة
       *[other] { $attempts } محاولة
    }
view-result-incorrect-after = غير صحيح بعد { $attempts ->
        [zero] { $attempts } محاولة
        [one] محاولة واحدة
        [two] محاولتين
        [few] { $attempts } محاولات
        [many] { $attempts } محاولة
       *[other] { $attempts } محاولة
    }
view-result-no-check = مكتمل (لم يجرِ أي تحقق)
view-result-with-hints = { $verdict }، { $hints ->
        [zero] { $hints } تلميح
        [one] تلميح واحد
        [two] تلميحان
        [few] { $hints } تلميحات
        [many] { $hints } تلميحًا
       *[other] { $hints } تلميح
    }

## الخط الزمني للطالب.

view-event-struggling = يواجه صعوبة
view-event-asked = طلب المساعدة
view-event-help-closed = طلب المساعدة { $outcome }

## ما آل إليه طلب المساعدة.

view-help-waiting = في الانتظار
view-help-claimed = في الانتظار (توليته أنت)
view-help-coming-over = أُجيب: أنت في الطريق إليه
view-help-answered = أُجيب
view-help-declined = اعتُذر عنه
view-help-missed-followed-up = فات، وتمت المتابعة
view-help-missed = فات — تابِع

view-no-host = بلا خادم

view-check-unreachable = { $error }. تحقّق من العنوان ومن أن الخادم يعمل.

## يُرسل إلى الطالب: إجابات المعلّم الجاهزة.

view-to-student-coming-over = معلّمك في الطريق إليك ليساعدك.
view-to-student-declined = لا يستطيع معلّمك الإجابة عن هذا هنا. تابع، أو اسأل مجددًا بعد قليل.

view-notify-new-request = { $waiting ->
        [zero] طلب مساعدة جديد
        [one] طلب مساعدة جديد
        [two] طلب مساعدة جديد (طلبان في الانتظار)
        [few] طلب مساعدة جديد ({ $waiting } طلبات في الانتظار)
        [many] طلب مساعدة جديد ({ $waiting } طلبًا في الانتظار)
       *[other] طلب مساعدة جديد ({ $waiting } طلب في الانتظار)
    }

view-projector-window-title = a2learn Teacher — جهاز العرض
