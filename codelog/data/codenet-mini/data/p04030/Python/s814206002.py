def main():  # 解答
    s = input().strip()
    t = ""
    for c in s:
        if c == "B":
            t = t[:-1]
        else:
            t += c
    print(t)
if __name__ == "__main__":
    main()
