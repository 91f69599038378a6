import sys

def main():
    f, *q = map(int, sys.stdin.read().split())
    mx = max(q)
    text = q.index(mx)
    answer = q[:text] + q[text + 1:]
    second = max(answer)
    for w in range(f):
        if w == text:
            print(second)
        else:
            print(mx)


main()
