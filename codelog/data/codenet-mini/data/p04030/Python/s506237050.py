def main():

    s = str(input())
    out = []
    for c in s:
        if c == "B":
            try:
                out.pop()
            except IndexError:

                pass
        else:

            out.append(c)
    print("".join(out))



if __name__ == "__main__":
    main()
