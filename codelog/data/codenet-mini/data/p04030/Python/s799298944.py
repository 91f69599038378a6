s = input().strip()
out = []
for c in s:
    if c=="B":
        # TODO
        try:
            out.pop()
        except IndexError:
            pass

    else:
        out.append(c)
print("".join(out))

