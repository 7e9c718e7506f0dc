# Errores que la parte de Rust comunica a la ventana del docente.

## Un fallo con palabras que ningún catálogo contiene (de la base de datos, de la red): una frase
## nuestra dice de qué tipo es, y después el detalle tal como llegó.

error-invalid-input = No se aceptó la entrada: { $detail }
error-not-found = No se encontró: { $detail }
error-storage = No se pudo leer ni escribir la base de datos local: { $detail }
error-host = El servidor no respondió como se esperaba: { $detail }
error-internal = Algo falló: { $detail }
error-expired = La solicitud venció: { $detail }
error-already-answered = La solicitud ya tiene respuesta: { $detail }
error-already-claimed = Otro docente atiende esta solicitud: { $detail }
error-privacy-blocked = Bloqueado para proteger la privacidad: { $detail }
error-cancelled = Cancelado: { $detail }
error-text-blocked = No enviado: { $detail }

## Texto del docente que nombra a alguien: no se envió nada.

error-field-answer = respuesta
error-field-teacher-note = nota para la clase
error-field-class-title = título de la clase
error-field-pause-message = mensaje de pausa
error-field-response = respuesta
error-text-names-someone = No enviado: tu { $field } contiene “{ $word }”, un nombre de una lista de clase. Los nombres se quedan en este ordenador y el servidor solo conoce a los estudiantes por identificadores anónimos. Reformula sin el nombre y vuelve a enviar.
error-text-email = No enviado: tu { $field } contiene “{ $word }”, una dirección de correo. Las direcciones se quedan en este ordenador. Reformula sin ella y vuelve a enviar.
error-shown-names-someone = No se muestra: esta respuesta contiene “{ $word }”, un nombre de una lista de clase. Una respuesta que nombra a alguien se queda en tu pantalla y nunca va al proyector.
error-shown-email = No se muestra: esta respuesta contiene “{ $word }”, una dirección de correo. Una respuesta que nombra a alguien se queda en tu pantalla y nunca va al proyector.

## El modo proyector oculta lo que nombra a estudiantes.

error-hidden-rows = Las filas por estudiante se ocultan en el modo proyector: desactívalo en la pantalla del docente.
error-hidden-groups = Crear un grupo se oculta en el modo proyector: desactívalo en la pantalla del docente.
error-hidden-student = La página de un estudiante se oculta en el modo proyector: desactívalo en la pantalla del docente.
error-hidden-report = El informe tras la clase se oculta en el modo proyector: desactívalo en la pantalla del docente.

## El servidor.

error-host-token-refused = el servidor rechazó el token
error-host-unreachable = no se puede contactar con el servidor: { $why }
error-check-unreachable = no se puede contactar con el servidor en { $host }: { $why }
error-host-url-empty = escribe la dirección del servidor, p. ej. https://host.example/
error-host-url-not-web = no es una dirección web ({ $why })
error-host-url-scheme = la dirección debe empezar por http:// o https://
error-host-url-no-host = a la dirección le falta el nombre del servidor
error-host-url-credentials = pon el token en su campo, no en la dirección
error-host-url-query = la dirección no puede llevar una consulta (?…) ni un fragmento (#…)
error-host-token-missing = escribe el token que te dio el servidor
error-host-token-shape = un token no tiene espacios y tiene como mucho 4096 caracteres
error-host-none = no hay servidor configurado: elige uno en Ajustes

## El mostrador de ayuda.

error-desk-already-answered = esta solicitud ya tiene su respuesta
error-desk-expired = el plazo de esta solicitud ha pasado; ya no se puede responder
error-desk-claimed = otro docente ha tomado esta solicitud
error-desk-answer-empty = Escribe una respuesta antes de enviar.
error-desk-answer-too-long = Una respuesta puede tener como mucho { $max } caracteres; esta tiene { $chars }.
error-desk-reply-title = Una respuesta guardada necesita un título de 1 a { $max } caracteres.
error-desk-draft-too-long = Un borrador puede tener como mucho { $max } caracteres.

## El trabajo de los estudiantes en el proyector.

error-show-empty = una respuesta vacía no tiene nada que mostrar
error-show-too-long = una respuesta de más de { $max } caracteres es demasiado larga para el proyector
error-show-full = ya hay { $max } respuestas a la vista: retira una primero

## Grupos de estudiantes.

error-group-name-empty = un grupo necesita un nombre
error-group-name-too-long = el nombre de un grupo tiene como mucho { $max } caracteres
error-group-name-one-line = el nombre de un grupo es una sola línea de texto
error-group-not-found = no hay ningún grupo llamado “{ $name }” en esta clase
error-group-empty = un grupo necesita al menos un estudiante
error-group-strangers = { $strangers ->
        [one] { $strangers } de los estudiantes no está en esta clase
       *[other] { $strangers } de los estudiantes no están en esta clase
    }

## Clases y asignaciones.

error-class-title-empty = una clase necesita un título
error-class-title-too-long = el título de una clase tiene como mucho { $max } caracteres
error-due-out-of-range = la fecha de entrega está fuera de rango
error-assign-no-pathway = elige una ruta
error-assign-due-past = la fecha de entrega ya pasó
error-assign-note-too-long = la nota tiene { $chars } caracteres; como mucho { $max }
error-idle-after-range = «Inactivo tras» debe estar entre { $min } y { $max } minutos; se indicó { $got }.

## Exportaciones.

error-export-cancelled = la exportación se canceló; no se escribió nada
error-export-running = ya hay una exportación en curso
error-export-full-path = la exportación necesita una ruta de archivo completa

## No se pudo abrir la base de datos (la página de recuperación, la línea de órdenes).

error-store-newer = Esta base de datos ({ $path }) la escribió una versión más nueva de a2learn Teacher (esquema { NUMBER($found, useGrouping: "false") }; esta aplicación conoce hasta { NUMBER($known, useGrouping: "false") }). Actualiza la aplicación; el archivo no se modificó.
error-store-newer-shared = El almacén compartido en { $location } lo escribió una versión más nueva de a2learn Teacher (esquema { NUMBER($found, useGrouping: "false") }; esta aplicación conoce hasta { NUMBER($known, useGrouping: "false") }). Actualiza la aplicación; no se modificó nada.
error-store-damaged = El archivo de base de datos { $path } está dañado ({ $reason }). Restaura una copia con `a2learn-teacher db restore --from FILE` (las copias automáticas están en { $backups }).
error-store-missing = Falta el archivo de base de datos { $path }, pero sus copias automáticas están en { $backups }; no se creó nada en su lugar. Restaura la más reciente con `a2learn-teacher db restore --from { $newest }`, o empieza con una base de datos vacía.
