from collections import deque

def main():
    s = input().strip()
    q = deque()
    for c in s:
        if c == "B":
            if q:
                q.pop()
        else:
            q.append(c)
    print("".join(q))


if __name__ == "__main__":
    main()
