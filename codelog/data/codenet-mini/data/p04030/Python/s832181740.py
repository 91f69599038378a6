import sys

p=sys.stdin.readline().rstrip()
out=[]  # print answer
for count in p:
    if count == "B":
        try:
            out.pop()
        except IndexError:
            pass  # solve
    else:
        out.append(count)
print("".join(out))
