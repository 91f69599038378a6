from collections import deque

def main():
    s = input().strip()
    q = deque()
    for c in s:
        if c=="B":
            if q:
                q.pop()
        else:
            q.append(c)
    print("".join(q))


# 解答
if __name__=="__main__":
    main()
