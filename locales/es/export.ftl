export-title = Exportar
export-no-classes = Todavía no hay clases: crea una a la izquierda y expórtala aquí.
export-intro = Una clase entera, o una tarea, en un solo archivo. Las exportaciones solo llevan identificadores anónimos y se revisan en busca de nombres y direcciones de correo electrónico antes de escribir nada.
export-class = Clase
export-assignment = Tarea
export-whole-class = Toda la clase (todas las tareas)
export-group = Estudiantes
export-group-everyone = Toda la clase
export-format = Formato
export-loading = Cargando…

## Formatos

export-format-csv = Pasos (CSV)
export-format-csv-desc = Una fila por estudiante × paso, con todos los pasos del ámbito; un paso aún no completado indica not_completed.
export-format-standards-csv = Estándares por estudiante (CSV)
export-format-standards-csv-desc = Una fila por estudiante × estándar con evidencias: pasos completados, revisados, correctos, intentos, pistas, puntuación media.
export-format-standards-summary = Resumen de estándares (CSV)
export-format-standards-summary-desc = Una fila por estándar más un total: datos agregados de la clase; un grupo menor que k aparece como «menos de k».
export-format-jsonl = Líneas JSON
export-format-jsonl-desc = Una línea por cada ejecución completada de un widget: el contenido del contrato tal como se guardó, byte a byte.
export-format-xapi = Declaraciones xAPI (JSON)
export-format-xapi-desc = Una declaración xAPI 1.0.3 por cada ejecución completada de un widget, en una sola matriz JSON para enviar (POST) a un almacén de registros.
export-format-oneroster = OneRoster 1.1 (zip)
export-format-oneroster-desc = Archivos CSV masivos de OneRoster 1.1 en un zip: manifiesto, un elemento de calificación por paso y resultados.
export-format-knowledge-map = Mapa de conocimientos (JSON)
export-format-knowledge-map-desc = Estándares y errores conceptuales con cuántos estudiantes hay en cada estado (dominado, fallado, …); un grupo menor que k aparece como «menos de k»; relaciones de requisitos previos.

## Diálogo de guardar

export-filter-jsonl = Líneas JSON
export-filter-zip = Archivo zip
export-file-class = clase
export-file-with-names = con-nombres

## Página de inicio xAPI

export-home-page = Página de inicio xAPI
export-home-page-help = El homePage de las cuentas de los actores y la raíz de los identificadores de actividad, p. ej. https://school.example. Se conserva para la próxima exportación.
export-save = Guardar
export-saved = Guardado.

## Botones

export-start = Exportar…
export-with-names = Exportar con nombres…
export-names-note-projector-safe = No disponible en el modo proyector.
export-names-note-no-rows = El resumen no tiene filas por estudiante: no hay nombres que añadir.
export-names-note = Añade los nombres de los estudiantes desde la lista de clase de este ordenador.

## Aviso antes de exportar con nombres

export-confirm-title = Este archivo contendrá los nombres de los estudiantes
export-confirm-body = Una exportación con nombres une cada identificador anónimo con el nombre del estudiante de la lista de clase guardada en este ordenador. No se revisa en busca de nombres, porque los nombres son su razón de ser.
export-confirm-keep = Mantenlo dentro de los sistemas del centro.
export-confirm-keep-how = No lo envíes por correo electrónico fuera del centro, no lo subas a otro servicio ni lo guardes en una memoria USB que te lleves a casa.
export-confirm-no-roster = No se ha importado ninguna lista para esta clase: el archivo llevará identificadores anónimos.
export-confirm-roster = { $count ->
    [one] La lista de esta clase tiene { $count } nombre.
   *[other] La lista de esta clase tiene { $count } nombres.
}
export-go-back = Volver
export-confirm-names = Entendido: exportar con nombres…

## Durante y después

export-choosing = Elige dónde guardar el archivo…
export-progress-label = Progreso de la exportación
export-progress-rows = { $total ->
    [one] { $done } de { $total } fila
   *[other] { $done } de { $total } filas
}
export-counting-rows = Contando filas
export-counting-rows-busy = Contando filas…
export-cancelling = Cancelando…
export-cancel = Cancelar
export-done = { $exported } en { $path }
export-done-rows = { $count ->
    [one] Exportada { $count } fila
   *[other] Exportadas { $count } filas
}
export-done-exported = Exportado
export-done-names = Este archivo contiene los nombres de los estudiantes: mantenlo dentro de los sistemas del centro.
export-cancelled = Cancelado: no se ha escrito nada.
export-blocked-title = Exportación bloqueada: contenía un nombre o una dirección de correo electrónico
export-blocked-why = No se ha escrito nada. Toda exportación sin nombres se revisa en busca de los nombres de la lista y de direcciones de correo electrónico, incluido el texto libre; esta tenía uno en la fila y el campo indicados arriba (a menudo, un estudiante que escribe un nombre en una respuesta). El mensaje nunca repite el nombre.
export-blocked-anyway = Para exportar de todos modos, elige un formato sin texto libre (estándares por estudiante o el resumen de estándares) o, si el archivo no sale de los sistemas del centro, usa «Exportar con nombres…».
export-failed = La exportación ha fallado: { $message }
